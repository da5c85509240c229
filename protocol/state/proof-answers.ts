/**
 * The JSON form of proven state reads (docs/rpc.md § NODE.GetStateProof, § NODE.GetRangeHistory): what the daemon
 * writes and what a client reads back, strictly — an answer from an untrusted daemon is checked field by field.
 * Byte strings are lower-case hex, topoheights JSON integers.
 */
import { fromHex, isWholeBytesHex, toHex } from '../bytes.js';
import type { TrieChunk } from './range-check.js';
import { StateProofError, StateProofErrorCode } from './state-proof-error.js';

/** A NODE.GetStateProof answer: which state it reads, the trie's root proven in the meta trie, the range's chunk. */
export interface StateProofAnswer {
  topoheight: bigint;
  blockhash: Uint8Array;
  treehash: Uint8Array;
  /** The meta-trie path along the key hash of the trie's name, root first: to the trie's leaf, or to its absence. */
  meta: Uint8Array[];
  /** The range's chunk in that trie; null when the state has no such trie. */
  chunk: TrieChunk | null;
}

/** One proven point of a range's history: the range's subtree hash at a topoheight, proven by paths alone. */
export interface HistoryPoint {
  topoheight: bigint;
  /** As a state proof's `meta`. */
  meta: Uint8Array[];
  /** The trie's nodes from its root towards the range (empty when the state has no such trie). */
  path: Uint8Array[];
}

/** A NODE.GetRangeHistory answer: points from `from` to `to`, in increasing topoheight. */
export interface RangeHistoryAnswer {
  from: bigint;
  to: bigint;
  points: HistoryPoint[];
}

const hexList = (items: Uint8Array[]): string[] => items.map(toHex);

export function stateProofToJson(answer: StateProofAnswer) {
  const { chunk } = answer;
  return {
    topoheight: Number(answer.topoheight),
    blockhash: toHex(answer.blockhash),
    treehash: toHex(answer.treehash),
    meta: hexList(answer.meta),
    chunk: chunk && {
      path: hexList(chunk.path),
      leaves: chunk.leaves.map((leaf) => ({ key: toHex(leaf.key), value: toHex(leaf.value) })),
      split: chunk.split,
    },
  };
}

export function rangeHistoryToJson(answer: RangeHistoryAnswer) {
  return {
    from: Number(answer.from),
    to: Number(answer.to),
    points: answer.points.map((point) => ({
      topoheight: Number(point.topoheight),
      meta: hexList(point.meta),
      path: hexList(point.path),
    })),
  };
}

function malformed(path: string, expected: string): never {
  throw new StateProofError(StateProofErrorCode.MalformedAnswer, `the answer's '${path}' must be ${expected}`);
}

function field(json: unknown, path: string, key: string): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) malformed(path || 'answer', 'an object');
  return (json as Record<string, unknown>)[key];
}

const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function topoheight(json: unknown, path: string, key: string): bigint {
  const value = field(json, path, key);
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    malformed(at(path, key), 'a non-negative integer');
  return BigInt(value);
}

function bytes(value: unknown, path: string, size?: number): Uint8Array {
  if (typeof value !== 'string' || !isWholeBytesHex(value) || (size !== undefined && value.length !== size * 2))
    malformed(path, size === undefined ? 'hex' : `${size} bytes of hex`);
  return fromHex(value);
}

function byteList(json: unknown, path: string, key: string): Uint8Array[] {
  const value = field(json, path, key);
  if (!Array.isArray(value)) malformed(at(path, key), 'an array');
  return value.map((item, i) => bytes(item, `${at(path, key)}[${i}]`));
}

function chunkFromJson(json: unknown): TrieChunk | null {
  const value = field(json, '', 'chunk');
  if (value === null) return null;
  const leaves = field(value, 'chunk', 'leaves');
  if (!Array.isArray(leaves)) malformed('chunk.leaves', 'an array');
  const split = field(value, 'chunk', 'split');
  if (typeof split !== 'boolean') malformed('chunk.split', 'a boolean');
  return {
    path: byteList(value, 'chunk', 'path'),
    leaves: leaves.map((leaf, i) => ({
      key: bytes(field(leaf, `chunk.leaves[${i}]`, 'key'), `chunk.leaves[${i}].key`),
      value: bytes(field(leaf, `chunk.leaves[${i}]`, 'value'), `chunk.leaves[${i}].value`),
    })),
    split,
  };
}

/** Reads a NODE.GetStateProof answer; throws a StateProofError naming the first field that is wrong. */
export function stateProofFromJson(json: unknown): StateProofAnswer {
  return {
    topoheight: topoheight(json, '', 'topoheight'),
    blockhash: bytes(field(json, '', 'blockhash'), 'blockhash', 32),
    treehash: bytes(field(json, '', 'treehash'), 'treehash', 32),
    meta: byteList(json, '', 'meta'),
    chunk: chunkFromJson(json),
  };
}

/** Reads a NODE.GetRangeHistory answer; throws a StateProofError naming the first field that is wrong. */
export function rangeHistoryFromJson(json: unknown): RangeHistoryAnswer {
  const points = field(json, '', 'points');
  if (!Array.isArray(points)) malformed('points', 'an array');
  return {
    from: topoheight(json, '', 'from'),
    to: topoheight(json, '', 'to'),
    points: points.map((point, i) => ({
      topoheight: topoheight(point, `points[${i}]`, 'topoheight'),
      meta: byteList(point, `points[${i}]`, 'meta'),
      path: byteList(point, `points[${i}]`, 'path'),
    })),
  };
}
