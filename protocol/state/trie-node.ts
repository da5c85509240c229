/**
 * Nodes of the authenticated binary trie (docs/protocol.md § State) and how they are stored.
 *
 *   leaf  hash = B2s(0x02 ‖ keyhash ‖ B2s(value))     stored as 0x02 ‖ keyhash ‖ uvarint |key| ‖ key ‖ value
 *   inner hash = B2s(0x01 ‖ left ‖ right)             stored as 0x01 ‖ left ‖ right
 *   nil   hash = B2s(0x02 ‖ 32 zero bytes)            never stored
 *
 * Nodes are immutable and stored under their hash, so every version of every tree shares unchanged subtrees.
 */
import { ByteReader } from '../bytes.js';

export type Hasher = (data: Uint8Array) => Uint8Array;
/**
 * Many hashes in one call: message i is `data[ends[i-1]..ends[i]]` (the first starts at 0); the digests come back end
 * to end, 32 bytes each (a native hasher hashes them all in one crossing).
 */
export type HashMany = (data: Uint8Array, ends: Uint32Array) => Uint8Array;

/** A HashMany that calls `hash` once per message. */
export function hashEachWith(hash: Hasher): HashMany {
  return (data, ends) => {
    const out = new Uint8Array(ends.length * 32);
    let start = 0;
    ends.forEach((end, i) => {
      out.set(hash(data.subarray(start, end)), i * 32);
      start = end;
    });
    return out;
  };
}

/** The digests of `messages`, hashed in one call of `hashMany`. */
export function hashAll(hashMany: HashMany, messages: Uint8Array[]): Uint8Array[] {
  const ends = new Uint32Array(messages.length);
  let length = 0;
  messages.forEach((message, i) => (ends[i] = length += message.length));
  const data = new Uint8Array(length);
  messages.forEach((message, i) => data.set(message, ends[i]! - message.length));
  const digests = hashMany(data, ends);
  return messages.map((_, i) => digests.subarray(i * 32, i * 32 + 32));
}

/** The first byte of a node's encoding. */
const INNER_KIND = 0x01;
const LEAF_KIND = 0x02;

export interface LeafNode {
  kind: 'leaf';
  keyhash: Uint8Array;
  key: Uint8Array;
  value: Uint8Array;
}

export interface InnerNode {
  kind: 'inner';
  left: Uint8Array;
  right: Uint8Array;
}

export type TrieNode = LeafNode | InnerNode;

/** What a leaf's hash is taken of: 0x02, its key hash, the hash of its value. */
export function leafPreimage(keyhash: Uint8Array, valueHash: Uint8Array): Uint8Array {
  const data = new Uint8Array(65);
  data[0] = LEAF_KIND;
  data.set(keyhash, 1);
  data.set(valueHash, 33);
  return data;
}

/** An inner node's encoding, which is also what its hash is taken of: 0x01, the left hash, the right hash. */
export function innerPreimage(left: Uint8Array, right: Uint8Array): Uint8Array {
  const data = new Uint8Array(65);
  data[0] = INNER_KIND;
  data.set(left, 1);
  data.set(right, 33);
  return data;
}

/** The hashes of many leaves: their values' hashes in one call of `hashMany`, then their preimages' in another. */
export function leafHashes(
  hashMany: HashMany,
  leaves: readonly { keyhash: Uint8Array; value: Uint8Array }[],
): Uint8Array[] {
  const valueHashes = hashAll(
    hashMany,
    leaves.map((leaf) => leaf.value),
  );
  return hashAll(
    hashMany,
    leaves.map((leaf, i) => leafPreimage(leaf.keyhash, valueHashes[i]!)),
  );
}

export function leafHash(hash: Hasher, keyhash: Uint8Array, value: Uint8Array): Uint8Array {
  return hash(leafPreimage(keyhash, hash(value)));
}

export function innerHash(hash: Hasher, left: Uint8Array, right: Uint8Array): Uint8Array {
  return hash(innerPreimage(left, right));
}

export function nilHash(hash: Hasher): Uint8Array {
  const data = new Uint8Array(33);
  data[0] = LEAF_KIND;
  return hash(data);
}

export function encodeNode(node: TrieNode): Uint8Array {
  if (node.kind === 'inner') return innerPreimage(node.left, node.right);
  if (node.keyhash.length !== 32) throw new RangeError(`expected a 32-byte key hash, got ${node.keyhash.length}`);
  let lengthBytes = 1;
  for (let rest = node.key.length >>> 7; rest > 0; rest >>>= 7) lengthBytes++;
  const out = new Uint8Array(33 + lengthBytes + node.key.length + node.value.length);
  out[0] = LEAF_KIND;
  out.set(node.keyhash, 1);
  let at = 33;
  let rest = node.key.length;
  for (; rest > 0x7f; rest >>>= 7) out[at++] = (rest & 0x7f) | 0x80;
  out[at++] = rest;
  out.set(node.key, at);
  out.set(node.value, at + node.key.length);
  return out;
}

export function decodeNode(bytes: Uint8Array): TrieNode {
  // Most nodes read are inner nodes: decoded without a reader (the checks are the reader's when this does not match).
  if (bytes.length === 65 && bytes[0] === INNER_KIND) {
    // One copy, both hashes views of it: half the allocations of a copy each.
    const copy = bytes.slice(1, 65);
    return { kind: 'inner', left: copy.subarray(0, 32), right: copy.subarray(32, 64) };
  }
  const reader = new ByteReader(bytes, 'state trie node');
  const kind = reader.byte('kind');
  if (kind === INNER_KIND) {
    const node: InnerNode = { kind: 'inner', left: reader.bytes(32, 'left'), right: reader.bytes(32, 'right') };
    reader.end();
    return node;
  }
  if (kind !== LEAF_KIND) return reader.fail(`unknown node kind ${kind}`);
  const keyhash = reader.bytes(32, 'keyhash');
  const key = reader.bytes(reader.smallUvarint('key length', 1 << 20), 'key');
  return { kind: 'leaf', keyhash, key, value: reader.bytes(reader.remaining, 'value') };
}

/** A node hash (or any bytes) as a string key for maps: one character per byte. */
export const cacheKey = (hash: Uint8Array): string =>
  Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1');

/** Bit `index` of a key hash, most significant bit of byte 0 first. */
export function bitAt(keyhash: Uint8Array, index: number): number {
  return (keyhash[index >> 3]! >> (7 - (index & 7))) & 1;
}
