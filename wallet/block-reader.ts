/**
 * Reads blocks from the daemon as the block scanner takes them: the header by topoheight, then its transfer and
 * contract transactions (decoded, with their rings' addresses and, for a contract transaction, what its call did) and
 * the fees they pay. `readChainBlocks` reads many at once in JSON-RPC batches (an Umbra daemon's way; the history
 * sync uses it where the daemon lists balance changes), `readChainBlock` one with single calls.
 */
import { fromHex } from '../protocol/bytes.js';
import { decodeTransaction, TxType } from '../protocol/transaction.js';
import type { ChainBlock } from './block-scanner.js';
import {
  DaemonRpcError,
  type BlockHeaderRecord,
  type DaemonClient,
  type FullTransactionRecord,
} from './daemon-client.js';

/** The most calls (and transactions of one NODE.GetTransaction call) a batch asks for. */
const BATCH_LIMIT = 1000;

export async function readChainBlock(daemon: DaemonClient, topoheight: number): Promise<ChainBlock> {
  const header = await daemon.blockHeaderByTopoHeight(topoheight);
  if (header.txcount === 0) return { topoheight, header, txs: [], fees: 0n };
  const hashes = await daemon.blockTxHashes(header.hash);
  return chainBlock(topoheight, header, hashes, await daemon.getTransactions(hashes));
}

/** The blocks at `topoheights`, in their order, in a few batches. */
export async function readChainBlocks(daemon: DaemonClient, topoheights: readonly number[]): Promise<ChainBlock[]> {
  const headers = (
    await batched(
      daemon,
      topoheights.map((topoheight) => ({ method: 'NODE.GetBlockHeaderByTopoHeight', params: { topoheight } })),
    )
  ).map((answer) => (answer as { block_header: BlockHeaderRecord }).block_header);
  const withTxs = headers.filter((header) => header.txcount > 0);
  const hashes = (
    await batched(
      daemon,
      withTxs.map(({ hash }) => ({ method: 'NODE.GetBlock', params: { hash } })),
    )
  ).map((answer) => (JSON.parse((answer as { json: string }).json) as { tx_hashes: string[] }).tx_hashes);
  const txids = hashes.flat();
  const records: FullTransactionRecord[] = [];
  for (let i = 0; i < txids.length; i += BATCH_LIMIT)
    records.push(...(await daemon.getTransactions(txids.slice(i, i + BATCH_LIMIT))));
  const txsOf = new Map<string, { hashes: string[]; records: FullTransactionRecord[] }>();
  let next = 0;
  withTxs.forEach((header, i) => {
    const count = hashes[i]!.length;
    txsOf.set(header.hash, { hashes: hashes[i]!, records: records.slice(next, next + count) });
    next += count;
  });
  return headers.map((header, i) => {
    const txs = txsOf.get(header.hash);
    return chainBlock(topoheights[i]!, header, txs?.hashes ?? [], txs?.records ?? []);
  });
}

/** The answers of `calls`, BATCH_LIMIT to a batch; the first refusal throws. */
async function batched(daemon: DaemonClient, calls: { method: string; params: unknown }[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (let i = 0; i < calls.length; i += BATCH_LIMIT) {
    for (const answer of await daemon.batch(calls.slice(i, i + BATCH_LIMIT))) {
      if (answer instanceof DaemonRpcError) throw answer;
      answers.push(answer);
    }
  }
  return answers;
}

function chainBlock(
  topoheight: number,
  header: BlockHeaderRecord,
  hashes: readonly string[],
  records: readonly FullTransactionRecord[],
): ChainBlock {
  const block: ChainBlock = { topoheight, header, txs: [], fees: 0n };
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
