/** The primitives inside AstroBWTv3, each against its published vectors, and the suffix array against a naive sort. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fnv1a64, siphash24, xxh64 } from '../../../core-native/ts/pow/hashes64.js';
import { primitive, rev8 } from '../../../core-native/ts/pow/astrobwtv3.js';
import { Rc4 } from '../../../core-native/ts/pow/rc4.js';
import { suffixArray } from '../../../core-native/ts/pow/suffix-array.js';
import { REPO_ROOT } from '../../helpers/cli.js';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

t.test('FNV-1a-64', async (t) => {
  t.equal(fnv1a64(new Uint8Array(0)), 0xcbf29ce484222325n);
  t.equal(fnv1a64(ascii('a')), 0xaf63dc4c8601ec8cn);
  t.equal(fnv1a64(ascii('foobar')), 0x85944171f73967e8n);
  t.equal(fnv1a64(ascii('foobar'), 1), fnv1a64(ascii('f')), 'a prefix length');
});

t.test('XXH64, seed 0', async (t) => {
  t.equal(xxh64(new Uint8Array(0)), 0xef46db3751d8e999n);
  t.equal(xxh64(ascii('a')), 0xd24ec4f1a98c6e5bn);
  t.equal(xxh64(ascii('abc')), 0x44bc2cf5ad770999n);
  t.equal(
    xxh64(ascii('Nobody inspects the spammish repetition')),
    0xfbcea83c8a378bf1n,
    '39 bytes: the 32-byte stripe path',
  );
});

t.test("SipHash-2-4 (the paper's vectors: key 00..0f, message 00..len-1)", async (t) => {
  const k0 = 0x0706050403020100n;
  const k1 = 0x0f0e0d0c0b0a0908n;
  const message = Uint8Array.from({ length: 64 }, (_, i) => i);
  t.equal(siphash24(k0, k1, message, 0), 0x726fdb47dd0e0e31n);
  t.equal(siphash24(k0, k1, message, 15), 0xa129ca6149be45e5n);
  t.equal(siphash24(k0, k1, message, 8), 0x93f5f5799a932462n);
});

t.test('RC4 (RFC 6229, key 0x0102030405), its state persisting across calls', async (t) => {
  const rc4 = new Rc4(Uint8Array.from([1, 2, 3, 4, 5]));
  const first = new Uint8Array(8);
  rc4.xor(first);
  t.equal(Buffer.from(first).toString('hex'), 'b2396305f03dc027');
  const next = new Uint8Array(8);
  rc4.xor(next);
  t.equal(Buffer.from(next).toString('hex'), 'ccc3524a0a1118a8', 'bytes 8–15 of the same stream');
});

t.test('byte primitives', async (t) => {
  t.equal(rev8(0b0000_0001), 0b1000_0000);
  t.equal(rev8(0b1100_1010), 0b0101_0011);
  t.equal(primitive(0, 200, 0), 144, 'x + x wraps');
  t.equal(primitive(2, 16, 0), 0, 'x · x wraps');
  t.equal(primitive(3, 0xf0, 0x0f), 0xff, 'x XOR S[p2]');
  t.equal(primitive(4, 0, 0), 255, 'NOT');
  t.equal(primitive(11, 0x81, 0), 0x03, 'rotl 1');
  t.equal(primitive(15, 0x01, 0), 0x20, 'rotl 5');
  t.equal(primitive(9, 0xff, 0), 0xf7, 'x XOR popcount');
  for (let id = 0; id < 16; id++)
    for (const x of [0, 1, 127, 128, 255]) t.ok(primitive(id, x, 77) >= 0 && primitive(id, x, 77) < 256);
});

function naiveSuffixArray(data: Uint8Array): number[] {
  const suffixes = Array.from({ length: data.length }, (_, i) => i);
  return suffixes.sort((a, b) => Buffer.compare(data.subarray(a), data.subarray(b)));
}

t.test('suffix array = naive sort, on random and highly repetitive inputs', async (t) => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
  for (let round = 0; round < 40; round++) {
    const length = 1 + random() * 7;
    const alphabet = round % 3 === 0 ? 2 : 256;
    const data = Uint8Array.from({ length }, () => random() % alphabet);
    t.same(Array.from(suffixArray(data)), naiveSuffixArray(data), `random input ${round} (${length} bytes)`);
  }
  const repetitive = new Uint8Array(3000).map((_, i) => (i % 256 < 250 ? 7 : i & 0xff));
  t.same(Array.from(suffixArray(repetitive)), naiveSuffixArray(repetitive), 'long repeats');
  t.same(Array.from(suffixArray(ascii('banana'))), [5, 3, 1, 0, 4, 2], 'a proper prefix sorts first');
  t.same(Array.from(suffixArray(ascii('banana'), 3)), [1, 0, 2], 'a prefix of the buffer');
  t.same(Array.from(suffixArray(new Uint8Array(0))), []);
});

t.test('the op table is what the documented generator makes from its seed', async (t) => {
  const generated = execFileSync(process.execPath, [join(REPO_ROOT, 'core-native', 'tools', 'gen-optable.mjs')], {
    env: { ...process.env, NODE_OPTIONS: '' },
  }).toString();
  t.equal(generated, readFileSync(join(REPO_ROOT, 'core-native', 'ts', 'pow', 'optable.ts'), 'utf8'));
});
