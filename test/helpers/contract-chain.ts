/**
 * Contract transactions on a test chain, as a wallet sends them: a funded account, and a call or install sent through
 * the pool and mined in the next block, with the outcome that block records.
 */
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { mineBlock, openTestChain, type TestChain } from './chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts, type Account } from './transfers.js';

export const installArgs = (code: string): RpcArgument[] => [
  { name: 'SC_ACTION', datatype: 'U', value: 1n },
  { name: 'SC_CODE', datatype: 'S', value: code },
];

export const callArgs = (scid: Uint8Array, entrypoint: string, more: RpcArgument[] = []): RpcArgument[] => [
  { name: 'SC_ACTION', datatype: 'U', value: 0n },
  { name: 'SC_ID', datatype: 'H', value: toHex(scid) },
  { name: 'entrypoint', datatype: 'S', value: entrypoint },
  ...more,
];

/** A chain with a funded account (1 000 000 units) and three more registered keys for rings. */
export async function fundedChain(): Promise<{ chain: TestChain; alice: Account; others: Account[] }> {
  const chain = await openTestChain();
  const [alice, ...others] = await registeredAccounts(chain, 4);
  chain.pool.add(buildTestTransfer(chain, premineAccount(chain), alice!.key, 1_000_000n).bytes);
  await mineBlock(chain);
  return { chain, alice: alice!, others };
}

export interface ContractTxOptions {
  /** The native deposit (default 0). */
  burn?: bigint;
  /** Default 2: the contract knows its signer. */
  ringSize?: number;
  /** The asset of the payload (default the native coin). */
  scid?: Uint8Array;
  /** Default 500. */
  fee?: bigint;
}

/** Sends a contract transaction from `from` (to a decoy receiver, amount 0) and mines it; its txid. */
export async function sendContractTx(
  chain: TestChain,
  from: Account,
  to: Account,
  args: RpcArgument[],
  options: ContractTxOptions = {},
): Promise<Uint8Array> {
  const built = buildTestTransfer(chain, from, to.key, 0n, {
    scArgs: args,
    burn: options.burn ?? 0n,
    ringSize: options.ringSize ?? 2,
    scid: options.scid,
    fee: options.fee ?? 500n,
  });
  chain.pool.add(built.bytes);
  await mineBlock(chain);
  const block = chain.chain.includingBlock(built.txid);
  if (!block || !equalBytes(block, chain.chain.top.id))
    throw new Error(`contract transaction ${toHex(built.txid)} is not in the block just mined`);
  return built.txid;
}

/** What the block that executed a contract transaction records of its call. */
export function outcomeOf(chain: TestChain, txid: Uint8Array): ContractCallOutcome | undefined {
  const block = chain.chain.includingBlock(txid);
  return block && chain.chain.callOutcome(block, txid);
}
