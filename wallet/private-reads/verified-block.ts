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

/** The block at `topoheight` (verified by the header chain) and all its transactions, each checked. */
export async function readVerifiedBlock(
  client: ProofClient,
  core: Pick<Core, 'sha3_256' | 'keccak256'>,
  headers: HeaderSource,
  topoheight: bigint,
): Promise<VerifiedBlock> {
  const header = headers.header(topoheight);
  if (!header) throw stateNotVerified(client.url, topoheight);
  const what = `block ${toHex(header.id)} at topoheight ${topoheight}`;
  const bytes = await client.block(header.id);
  if (!equalBytes(core.sha3_256(bytes), header.id))
    throw proofRefused(client.url, what, 'the block it served hashes to another id than the verified header');
  const block = decodeBlock(bytes);
  const bodies = block.txHashes.length === 0 ? [] : await client.transactions(block.txHashes);
  if (bodies.length !== block.txHashes.length)
    throw proofRefused(
      client.url,
      what,
      `the block names ${block.txHashes.length} transactions, the daemon served ${bodies.length}`,
    );
  const transactions = block.txHashes.map((txid, i) => {
    const { bytes, outcome } = bodies[i]!;
    const checked = checkedTransaction(core, txid, bytes);
    if (!checked.tx) throw proofRefused(client.url, `${what}: transaction ${toHex(txid)}`, checked.error!);
    return { txid, bytes, tx: checked.tx, ...(outcome && { outcome }) };
  });
  return { topoheight, id: header.id, block, transactions };
}
