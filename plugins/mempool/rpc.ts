/** The pool's daemon methods: NODE.SendRawTransaction and NODE.GetTxPool (docs/rpc.md § NODE.SendRawTransaction, § NODE.GetTxPool). */
import { toHex } from '../../protocol/bytes.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import { noParams, objectParams, p } from '../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../host/rpc/registry.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';

export function mempoolMethods(pool: () => TxPoolService): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.SendRawTransaction',
      aliases: ['sendrawtransaction'],
      params: objectParams(p.object({ tx_as_hex: p.hex() })),
      handler: async ({ tx_as_hex }) => {
        if (tx_as_hex.length === 0) throw new TransactionError(TransactionErrorCode.Malformed, 'tx_as_hex is empty');
        try {
          const txid = await pool().addBatched(Buffer.from(tx_as_hex, 'hex'), { local: true });
          return { status: 'OK', string: '', txid: toHex(txid) };
        } catch (error) {
          if (error instanceof TransactionError)
            throw new TransactionError(error.code, `transaction rejected: ${error.message}`, { cause: error });
          throw error;
        }
      },
    }),
    defineMethod({
      name: 'NODE.GetTxPool',
      aliases: ['gettxpool'],
      params: noParams,
      handler: () => ({ txs: pool().pending().map(toHex), status: 'OK' }),
    }),
  ];
}
