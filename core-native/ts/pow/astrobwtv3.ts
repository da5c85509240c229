/**
 * AstroBWTv3 (docs/protocol.md § Proof of work) with Umbra's own op table (optable.ts, generated from a documented seed):
 * SHA-256 → Salsa20 expansion to 256 bytes → RC4 → ~270 rounds of branchy byte operations mixed with FNV-1a, XXH64
 * and SipHash → suffix array of the ~68 KB output → SHA-256 of the suffix array (int32 little-endian).
 */
import { salsa20 } from '@noble/ciphers/salsa.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fnv1a64, siphash24, xxh64 } from './hashes64.js';
import { OP_TABLE } from './optable.js';
import { Rc4 } from './rc4.js';
import { suffixArray } from './suffix-array.js';

const MASK = (1n << 64n) - 1n;
const MAX_TRIES = 277;

const rotl8 = (x: number, r: number): number => ((x << (r & 7)) | (x >>> (8 - (r & 7)))) & 0xff;
export const rev8 = (x: number): number => {
  let r = 0;
  for (let i = 0; i < 8; i++) r |= ((x >> i) & 1) << (7 - i);
  return r;
};
const popcount8 = (x: number): number => {
  let c = 0;
  for (let v = x; v; v &= v - 1) c++;
  return c;
};

/** Primitive `id` (§6.2 table) applied to byte x; `s2` is S[p2] read live. */
export function primitive(id: number, x: number, s2: number): number {
  switch (id) {
    case 0:
      return (x + x) & 0xff;
    case 1:
      return (x - (x ^ 97)) & 0xff;
    case 2:
      return (x * x) & 0xff;
    case 3:
      return x ^ s2;
    case 4:
      return ~x & 0xff;
    case 5:
      return x & s2;
    case 6:
      return (x << (x & 3)) & 0xff;
    case 7:
      return x >>> (x & 3);
    case 8:
      return rev8(x);
    case 9:
      return x ^ popcount8(x);
    case 10:
      return rotl8(x, x % 8);
    case 11:
      return rotl8(x, 1);
    case 12:
      return x ^ rotl8(x, 2);
    case 13:
      return rotl8(x, 3);
    case 14:
      return x ^ rotl8(x, 4);
    default:
      return rotl8(x, 5);
  }
}

export function astroBwtV3(input: Uint8Array): Uint8Array {
  const key = sha256(input);
  const S = salsa20(key, new Uint8Array(8), new Uint8Array(256));
  let rc4 = new Rc4(S);
  rc4.xor(S);
  let lh = fnv1a64(S);
  let prev = lh;
  const output = new Uint8Array(MAX_TRIES * 256);
  let tries = 0;
  for (;;) {
    tries++;
    const sw = (prev ^ lh ^ BigInt(tries)) & MASK;
    const op = Number(sw & 0xffn);
    let p1 = Number((sw >> 8n) & 0xffn);
    let p2 = Number((sw >> 16n) & 0xffn);
    if (p1 > p2) [p1, p2] = [p2, p1];
    if (p2 - p1 > 32) p2 = p1 + ((p2 - p1) & 0x1f);
    if (op >= 254) rc4 = new Rc4(S);
    const block = Math.min(op, 254) * 4;
    for (let i = p1; i < p2; i++) {
      let x = S[i]!;
      for (let k = 0; k < 4; k++) x = primitive(OP_TABLE[block + k]!, x, S[p2]!);
      S[i] = x;
      if (op === 0) {
        const a = S[p1]!;
        const b = S[p2]!;
        S[p2] = rev8(a);
        S[p1] = rev8(b);
      } else if (op === 253) {
        prev = (prev + lh) & MASK;
        lh = xxh64(S, p2);
      }
    }
    const d = (S[p1]! - S[p2]!) & 0xff;
    if (d < 0x10) {
      prev = (prev + lh) & MASK;
      lh = xxh64(S, p2);
    }
    if (d < 0x20) {
      prev = (prev + lh) & MASK;
      lh = fnv1a64(S, p2);
    }
    if (d < 0x30) {
      prev = (prev + lh) & MASK;
      lh = siphash24(BigInt(tries), prev, S, p2);
    }
    if (d <= 0x40) rc4.xor(S);
    S[255] = S[255]! ^ S[p1]! ^ S[p2]!;
    output.set(S, (tries - 1) * 256);
    if (tries > 276 || (S[255]! >= 0xf0 && tries > 260)) break;
  }
  const length = (tries - 4) * 256 + (((S[253]! << 8) | S[254]!) & 0x3ff);
  const sa = suffixArray(output, length);
  return sha256(new Uint8Array(sa.buffer, 0, length * 4));
}
