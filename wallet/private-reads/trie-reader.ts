/**
 * Reads of the state tries checked against the state root of a header the wallet verified itself: ranges (one answer
 * each, or read whole across splits, both halves of a split asked for together) and single keys (each as the range of
 * its key hash's first 96 bits, all of a read in one shuffled batch). An answer that does not prove is refused naming
 * the daemon; nothing is kept from it.
 */
import { randomInt } from 'node:crypto';
import { toHex } from '../../protocol/bytes.js';
import type { ChunkLeaf, KeyRange } from '../../protocol/state/range-check.js';
import { StateProofError } from '../../protocol/state/state-proof-error.js';
import {
  keyRange,
  provenValue,
  verifyStateProof,
  type ProvenRange,
  type StateHashes,
} from '../../protocol/state/state-proof.js';
import { MAX_PROOF_LEAVES_PER_ANSWER, type ProofClient, type StateProofRequest } from './proof-client.js';
import { proofRefused, stateNotVerified } from './read-refusal.js';

/** Where verified state roots come from: the wallet's light client. */
export interface StateRootSource {
  stateRootAt(topoheight: bigint): Uint8Array | undefined;
}

/** A range to read, and how a refusal names it. */
export interface RangeRead {
  trie: Uint8Array;
  range: KeyRange;
  /** Most leaves to an answer (default: the daemon's limit). */
  limit?: number;
  what: string;
}

/** The items of `items` in a uniformly random order. */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export class TrieReader {
  constructor(
    private readonly hashes: StateHashes,
    private readonly roots: StateRootSource,
    private readonly client: ProofClient,
  ) {}

  get url(): string {
    return this.client.url;
  }

  /** The verified state root at a topoheight; refused when the header chain does not hold it. */
  stateRoot(topoheight: bigint): Uint8Array {
    const root = this.roots.stateRootAt(topoheight);
    if (!root) throw stateNotVerified(this.url, topoheight);
    return root;
  }

  /** Each read at `topoheight`, in one batch, every answer checked against the verified root; in their order. */
  async read(reads: readonly RangeRead[], topoheight: bigint): Promise<ProvenRange[]> {
    const root = this.stateRoot(topoheight);
    const requests: StateProofRequest[] = reads.map(({ trie, range, limit }) => ({
      trie,
      range,
      topoheight,
      limit: limit ?? MAX_PROOF_LEAVES_PER_ANSWER,
    }));
    const answers = await this.client.stateProofs(requests);
    return reads.map((read, i) => {
      try {
        return verifyStateProof(this.hashes, root, read.trie, read.range, answers[i]);
      } catch (error) {
        if (error instanceof StateProofError)
          throw proofRefused(this.url, `${read.what} at topoheight ${topoheight}`, error.message, error);
        throw error;
      }
    });
  }

  /** Every leaf of a range, in key-hash order, asking for the halves of a split range (both at once) until none is. */
  async readWhole(read: RangeRead, topoheight: bigint): Promise<ChunkLeaf[]> {
    const leaves: ChunkLeaf[] = [];
    let pending: RangeRead[] = [read];
    while (pending.length > 0) {
      const proven = await this.read(pending, topoheight);
      pending = proven.flatMap((range) => range.halves.map((half) => ({ ...read, range: half })));
      leaves.push(...proven.flatMap((range) => range.leaves));
    }
    const keyhashes = new Map(leaves.map((leaf) => [leaf, toHex(this.hashes.blake2s256(leaf.key))]));
    return leaves.sort((a, b) => (keyhashes.get(a)! < keyhashes.get(b)! ? -1 : 1));
  }

  /**
   * The values of `keys` in one trie (undefined where the state holds none), in their order; asked for in one batch
   * in a random order, so the order of the requests says nothing of the keys' roles.
   */
  async readKeys(trie: Uint8Array, keys: readonly Uint8Array[], topoheight: bigint, what: string) {
    const order = shuffled(keys.map((key, index) => ({ key, index })));
    const reads = order.map(({ key }) => ({ trie, range: keyRange(this.hashes, key), what: `${what} ${toHex(key)}` }));
    const proven = await this.read(reads, topoheight);
    const values = new Array<Uint8Array | undefined>(keys.length);
    order.forEach(({ key, index }, i) => {
      if (proven[i]!.split) throw proofRefused(this.url, reads[i]!.what, 'a single key came back as a split range');
      values[index] = provenValue(this.hashes, proven[i]!, key);
    });
    return values;
  }
}

/** A reader whose single-range reads are each asked once, however many callers ask the same at the same state. */
export function onceEach(reader: Pick<TrieReader, 'read'>): Pick<TrieReader, 'read'> {
  const asked = new Map<string, Promise<ProvenRange[]>>();
  return {
    read(reads, topoheight) {
      if (reads.length !== 1) return reader.read(reads, topoheight);
      const { trie, range, limit } = reads[0]!;
      const key = `${toHex(trie)}:${range.bits}:${toHex(range.prefix)}:${limit}:${topoheight}`;
      let answer = asked.get(key);
      if (!answer) asked.set(key, (answer = reader.read(reads, topoheight)));
      return answer;
    },
  };
}
