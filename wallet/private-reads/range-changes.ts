/**
 * The blocks in which the wallet's privacy range of an asset changed (NODE.GetRangeHistory), checked so that none can
 * be left out: every point of the answer proves the range's hash against the state root of a header the wallet
 * verified, and two points further apart than one block must hash alike (protocol/state/range-history.ts). An answer
 * the daemon's bounds cut short is continued from where it ended.
 */
import { toHex } from '../../protocol/bytes.js';
import type { KeyRange } from '../../protocol/state/range-check.js';
import { verifyRangeHistory, type ProvenHistory } from '../../protocol/state/range-history.js';
import type { StateHashes } from '../../protocol/state/state-proof.js';
import { StateProofError } from '../../protocol/state/state-proof-error.js';
import { trieName } from '../../protocol/state/trie-names.js';
import type { ProofClient } from './proof-client.js';
import { proofRefused, stateNotVerified } from './read-refusal.js';
import type { StateRootSource } from './trie-reader.js';

export interface RangeChangesQuery {
  asset: Uint8Array;
  range: KeyRange;
  /** The changes after this block … */
  from: bigint;
  /** … up to and including this one; both verified by the header chain. */
  to: bigint;
}

/** The topoheights in (from, to], in increasing order, at which the range's content changed. */
export async function rangeChanges(
  client: ProofClient,
  hashes: StateHashes,
  roots: StateRootSource,
  query: RangeChangesQuery,
): Promise<bigint[]> {
  const { asset, range, to } = query;
  for (const end of [query.from, to]) if (!roots.stateRootAt(end)) throw stateNotVerified(client.url, end);
  const trie = trieName('B', asset);
  const what = `the history of the privacy range of asset ${toHex(asset)}`;
  const verified = { get: (topoheight: bigint) => roots.stateRootAt(topoheight) };
  const changes: bigint[] = [];
  for (let from = query.from; from < to; ) {
    const answer = await client.rangeHistory(trie, range, from, to);
    let proven: ProvenHistory;
    try {
      proven = verifyRangeHistory(hashes, verified, trie, range, { from, to }, answer);
    } catch (error) {
      if (error instanceof StateProofError)
        throw proofRefused(client.url, `${what} from topoheight ${from} to ${to}`, error.message, error);
      throw error;
    }
    changes.push(...proven.changes.map((change) => change.topoheight));
    from = proven.to;
  }
  return changes;
}
