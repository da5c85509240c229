/**
 * NODE.CheckPaymentProof (an Umbra extension, docs/rpc.md § NODE.CheckPaymentProof): checks a payment proof against
 * a transaction in the pool or on the main chain, for a receiver or an arbiter who has no wallet of the sender's.
 * A proof that does not fit is an answer (`valid: false` with the code and the reason), not an error: the check ran,
 * and its result is no. An unknown transaction is -32098 `query.unknown-transaction`.
 */
import type { Core } from '../../../core-native/ts/core.js';
import { fromHex } from '../../../protocol/bytes.js';
import type { NetworkName } from '../../../protocol/network.js';
import { checkPaymentProof, PaymentProofError } from '../../../protocol/payment-proof-check.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { rpcArgumentToExactJson } from '../../../protocol/rpc-arguments.js';
import { decodeTransaction } from '../../../protocol/transaction.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import { heldTransaction, type TransactionRpcDeps } from './transaction-methods.js';

export interface PaymentProofRpcDeps extends Pick<TransactionRpcDeps, 'chain' | 'pool'> {
  core: Core;
  network: NetworkName;
}

export function paymentProofMethod(deps: PaymentProofRpcDeps): RpcMethod {
  return defineMethod({
    name: 'NODE.CheckPaymentProof',
    aliases: ['checkpaymentproof'],
    params: objectParams(p.object({ txid: p.hash(), proof: p.string() })),
    handler: ({ txid, proof }) => {
      const id = fromHex(txid, 32);
      const held = heldTransaction(deps, id);
      if (!held)
        throw new QueryError(
          QueryErrorCode.UnknownTransaction,
          `no transaction ${txid.toLowerCase()} on this chain or in the pool`,
        );
      try {
        const fit = checkPaymentProof(deps.core, deps.network, { txid: id, tx: decodeTransaction(held.bytes), proof });
        return {
          valid: true,
          payload: fit.payload,
          asset: fit.asset,
          ring_index: fit.ringIndex,
          ring_size: fit.ringSize,
          receiver: fit.receiver,
          amount: fit.amount,
          payload_rpc: fit.args.map(rpcArgumentToExactJson),
          status: 'OK',
        };
      } catch (error) {
        if (!(error instanceof PaymentProofError)) throw error;
        return { valid: false, code: error.code, reason: error.message, status: 'OK' };
      }
    },
  });
}
