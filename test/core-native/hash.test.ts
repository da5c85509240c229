import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { HashCore } from '../../core-native/ts/hash.js';
import { bothCores, forEachCore, nativeMissing } from '../helpers/core-impls.js';
import { loadVectors } from '../helpers/vectors.js';

type HashName = Exclude<keyof HashCore, 'blake2s256Many'>;
interface HashVector {
  hex?: string;
  ascii?: string;
  repeat?: number;
  digest: string;
}
const vectors = loadVectors<Record<HashName, HashVector[]>>('core-hashes.json');
const HASHES: HashName[] = ['keccak256', 'sha3_256', 'sha256', 'blake2s256'];

const input = (v: HashVector): Uint8Array =>
  v.hex !== undefined ? Buffer.from(v.hex, 'hex') : Buffer.from(v.ascii!.repeat(v.repeat ?? 1), 'latin1');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** A deterministic, non-repeating byte pattern of a given length. */
const pattern = (length: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (i * 131 + (i >> 8) * 7 + 1) & 0xff);

await forEachCore(t, async (t, core) => {
  for (const name of HASHES) {
    t.test(`${name}: published vectors`, async (t) => {
      for (const v of vectors[name]) {
        const data = input(v);
        const label = v.hex ?? (v.repeat ? `"${v.ascii}" × ${v.repeat}` : `"${v.ascii}"`);
        t.equal(hex(core[name](data)), v.digest, label);
      }
    });
  }

  t.test('the digest is a fresh 32-byte Uint8Array and the input is untouched', async (t) => {
    for (const name of HASHES) {
      const data = pattern(200);
      const before = hex(data);
      const a = core[name](data);
      const b = core[name](data);
      t.ok(a instanceof Uint8Array, `${name} returns a Uint8Array`);
      t.equal(a.length, 32, `${name} is 32 bytes`);
      t.not(a, b, `${name} returns a new array each time`);
      t.equal(hex(data), before, `${name} leaves its input unchanged`);
    }
  });

  t.test('a view into a larger buffer hashes only its own bytes', async (t) => {
    const big = pattern(300);
    const view = big.subarray(17, 17 + 140);
    for (const name of HASHES) t.equal(hex(core[name](view)), hex(core[name](Uint8Array.from(view))), name);
  });

  t.test('blake2s256Many: each message hashed as blake2s256 would, end to end', async (t) => {
    const data = pattern(300);
    const ends = Uint32Array.of(0, 3, 3, 64, 65, 129, 300);
    const digests = core.blake2s256Many(data, ends);
    t.equal(digests.length, 32 * ends.length);
    let start = 0;
    ends.forEach((end, i) => {
      t.equal(
        hex(digests.subarray(32 * i, 32 * i + 32)),
        hex(core.blake2s256(data.subarray(start, end))),
        `message ${i}`,
      );
      start = end;
    });
    t.equal(core.blake2s256Many(data, new Uint32Array(0)).length, 0, 'no messages, no digests');
    const offsets = new Uint32Array(8).subarray(2, 4);
    offsets.set([10, 20]);
    t.equal(
      hex(core.blake2s256Many(data, offsets).subarray(32)),
      hex(core.blake2s256(data.subarray(10, 20))),
      'a view of offsets',
    );
  });

  t.test('blake2s256Many: offsets that decrease or pass the data are refused', async (t) => {
    const data = pattern(100);
    t.throws(() => core.blake2s256Many(data, Uint32Array.of(10, 5)), /must not decrease/);
    t.throws(() => core.blake2s256Many(data, Uint32Array.of(101)), /must not decrease nor pass/);
  });

  t.test('non-byte input is rejected with a clear error', async (t) => {
    for (const name of HASHES) {
      t.throws(() => core[name]('abc' as unknown as Uint8Array), name);
    }
  });
});

t.test('native and fallback agree', { skip: nativeMissing() }, async (t) => {
  const cores = await bothCores();
  // Every length around the block boundaries (SHA-256/BLAKE2s: 64, Keccak: 136) and a few hundred random inputs.
  const inputs: Uint8Array[] = [];
  for (let length = 0; length <= 300; length++) inputs.push(pattern(length));
  for (let i = 0; i < 500; i++) inputs.push(randomBytes(Math.floor(Math.random() * 2048)));
  for (const name of HASHES) {
    let mismatches = 0;
    for (const data of inputs) if (hex(cores.native[name](data)) !== hex(cores.fallback[name](data))) mismatches++;
    t.equal(mismatches, 0, `${name}: ${inputs.length} inputs agree`);
  }
  const ends = new Uint32Array(inputs.length);
  let length = 0;
  inputs.forEach((input, i) => (ends[i] = length += input.length));
  const data = new Uint8Array(length);
  inputs.forEach((input, i) => data.set(input, ends[i]! - input.length));
  t.equal(
    hex(cores.native.blake2s256Many(data, ends)),
    hex(cores.fallback.blake2s256Many(data, ends)),
    'blake2s256Many',
  );
});
