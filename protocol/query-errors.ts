/**
 * Why the daemon cannot answer a question about its chain, accounts or contracts (the NODE.* queries, the gas
 * estimate's trial run included). Wallets recognise these by code in the JSON-RPC answer's `data`, so the codes live
 * here, beside the protocol both sides speak.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export const QueryErrorCode = {
  /** The account holds no balance of the asset asked for: not registered, or never held the token. */
  AccountUnregistered: 'query.account-unregistered',
  /** A topoheight below 0 (other than -1, the latest) or above the chain's top. */
  TopoheightOffChain: 'query.topoheight-off-chain',
  UnknownBlock: 'query.unknown-block',
  /** Neither the pool nor the main chain holds the transaction. */
  UnknownTransaction: 'query.unknown-transaction',
  /** A block asked for by neither hash nor height. */
  NoBlockGiven: 'query.no-block-given',
  UnknownContract: 'query.unknown-contract',
  NameNotRegistered: 'query.name-not-registered',
  /** The node runs without the dvm plugin. */
  NoContractVm: 'query.no-contract-vm',
  // The gas estimate's refusals before it runs anything (what the pool would refuse too)
  ContractDoesNotCompile: 'query.contract-does-not-compile',
  NoInitializer: 'query.no-initializer',
  UnknownFunction: 'query.unknown-function',
  NotExported: 'query.not-exported',
  /** The install or call ran and would not commit; `details.failure` is the contract's error. */
  CallWouldFail: 'query.call-would-fail',
} as const;
export type QueryErrorCode = (typeof QueryErrorCode)[keyof typeof QueryErrorCode];

export class QueryError extends UmbraError<QueryErrorCode> {
  override readonly name = 'QueryError';
}
