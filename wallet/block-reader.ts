/**
 * Reads a block from the daemon as the block scanner takes it: the header by topoheight, then its transfer and
 * contract transactions (decoded, with their rings' addresses and, for a contract transaction, what its call did) and
 * the fees they pay.
 */
import { fromHex } from '../host/protocol/bytes.js';
import { decodeTransaction, TxType } from '../host/protocol/transaction.js';
import type { ChainBlock } from './block-scanner.js';
import type { DaemonClient } from './daemon-client.js';

export async function readChainBlock(daemon: DaemonClient, topoheight: number): Promise<ChainBlock> {
  const header = await daemon.blockHeaderByTopoHeight(topoheight);
  const block: ChainBlock = { topoheight, header, txs: [], fees: 0n };
  if (header.txcount === 0) return block;
  const hashes = await daemon.blockTxHashes(header.hash);
  const records = await daemon.getTransactions(hashes);
  records.forEach((record, i) => {
    const tx = decodeTransaction(fromHex(record.as_hex));
    if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) return;
    for (const payload of tx.payloads) block.fees += payload.statement.fees;
    block.txs.push({
      txid: hashes[i]!,
      tx,
      ring: record.ring ?? [],
      ...(record.sc_outcome && { sc_outcome: record.sc_outcome }),
    });
  });
  return block;
}
