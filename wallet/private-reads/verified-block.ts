/**
 * A block read whole, as an explorer reads it, and checked against the header chain: its bytes must hash to the id of
 * the verified header at its topoheight, and every transaction it names — all of them, never only the wallet's, so
 * the reads show no interest in any one — must be served and hash to its txid. A transaction dropped, added or
 * altered by the daemon is caught.
 */
import type { Core } from '../../core-native/ts/core.js';
import { decodeBlock, type Block } from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { decodeTransaction, encodeTransactionHeader, type Transaction } from '../../protocol/transaction.js';
import type { ProofClient } from './proof-client.js';
import { proofRefused, stateNotVerified } from './read-refusal.js';

/** The verified header chain (a LightClient): the id of the block at each topoheight it holds. */
export interface HeaderSource {
  header(topoheight: bigint): { id: Uint8Array } | undefined;
}

export interface VerifiedBlock {
  topoheight: bigint;
  id: Uint8Array;
  block: Block;
  /**
   * The block's transactions, in its order, each with its txid (and, for a contract transaction, what its call did
   * as the daemon reports it).
   */
  transactions: { txid: Uint8Array; bytes: Uint8Array; tx: Transaction; outcome?: ContractCallOutcome }[];
}

/** Decodes a served transaction and checks that it is the one `txid` names. */
function checkedTransaction(core: Pick<Core, 'keccak256'>, txid: Uint8Array, bytes: Uint8Array) {
  let tx: Transaction;
  try {
    tx = decodeTransaction(bytes);
  } catch (error) {
    return { error: `it does not decode (${(error as Error).message})` };
  }
  if (!equalBytes(core.keccak256(encodeTransactionHeader(tx)), txid)) return { error: 'it hashes to another txid' };
  return { tx };
}

/**
 * The blocks at `topoheights` (each verified by the header chain) and all their transactions, in that order: the
 * blocks in one batch of NODE.GetBlock calls, then the transactions of all of them in NODE.GetTransaction calls of up
 * to a thousand — a few requests for many blocks.
 */
export async function readVerifiedBlocks(
  client: ProofClient,
  core: Pick<Core, 'sha3_256' | 'keccak256'>,
  headers: HeaderSource,
  topoheights: readonly bigint[],
): Promise<VerifiedBlock[]> {
  const ids = topoheights.map((topoheight) => {
    const header = headers.header(topoheight);
    if (!header) throw stateNotVerified(client.url, topoheight);
    return header.id;
  });
  const what = (i: number) => `block ${toHex(ids[i]!)} at topoheight ${topoheights[i]}`;
  const blocks = (await client.blocks(ids)).map((bytes, i) => {
    if (!equalBytes(core.sha3_256(bytes), ids[i]!))
      throw proofRefused(client.url, what(i), 'the block it served hashes to another id than the verified header');
    return decodeBlock(bytes);
  });
  const txids = blocks.flatMap((block) => block.txHashes);
  const bodies = txids.length === 0 ? [] : await client.transactions(txids);
  if (bodies.length !== txids.length)
    throw proofRefused(
      client.url,
      blocks.length === 1 ? what(0) : `blocks at topoheights ${topoheights[0]} to ${topoheights.at(-1)}`,
      `${blocks.length === 1 ? 'the block names' : 'the blocks name'} ${txids.length} transactions, the daemon served ${bodies.length}`,
    );
  let served = 0;
  return blocks.map((block, i) => {
    const transactions = block.txHashes.map((txid) => {
      const { bytes, outcome } = bodies[served++]!;
      const checked = checkedTransaction(core, txid, bytes);
      if (!checked.tx) throw proofRefused(client.url, `${what(i)}: transaction ${toHex(txid)}`, checked.error!);
      return { txid, bytes, tx: checked.tx, ...(outcome && { outcome }) };
    });
    return { topoheight: topoheights[i]!, id: ids[i]!, block, transactions };
  });
}
