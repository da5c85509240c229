import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bn254 } from '@noble/curves/bn254.js';
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { balanceTablePath, loadOrBuildBalanceTable } from '../../core-native/ts/balance-cache.js';
import { bothCores, forEachCore, nativeMissing } from '../helpers/core-impls.js';

// G = HashToPoint("DEROG") (docs/cryptography.md § Generators, § Test vectors) (uncompressed); b·G is computed independently with noble.
const GX = 0x02eacfbf92b94015c9b0b3d901dae37ec68f74dea7e4484c76d505aade4ad7c0n;
const GY = 0x1bb19d0d6bfcd78fc21da8d68dff1e8441cfa73d66cab25bb0315cf6d6433b5dn;
const G = bn254.G1.Point.fromAffine({ x: GX, y: GY });
const bytesOf = (p: typeof G): Uint8Array => {
  if (p.is0()) return new Uint8Array(64);
  const { x, y } = p.toAffine();
  return Uint8Array.from([...bigintToBytes32BE(x), ...bigintToBytes32BE(y)]);
};
const BASE = bytesOf(G);
const times = (b: bigint): Uint8Array => bytesOf(G.multiplyUnsafe(b));

await forEachCore(t, async (t, core) => {
  const table = core.buildBalanceTable(BASE, 10);

  t.test('decodes values inside the table, across giant steps and on their edges', async (t) => {
    t.equal(table.bits, 10);
    t.equal(Buffer.from(table.base).toString('hex'), Buffer.from(BASE).toString('hex'));
    for (const b of [0n, 1n, 2n, 1022n, 1023n, 1024n, 2046n, 2047n, 2048n, 3070n, 5000n, 123_456n, 1_230_000n]) {
      t.equal(table.decode(times(b), { maxValue: 2_000_000n }), b, `b = ${b}`);
    }
  });

  t.test('the smallest table (8 bits, 24 tag bits in an entry) decodes across many giant steps', async (t) => {
    const small = core.buildBalanceTable(BASE, 8);
    for (const b of [1n, 255n, 256n, 511n, 70_000n])
      t.equal(small.decode(times(b), { maxValue: 100_000n }), b, `b = ${b}`);
  });

  t.test('gives null above maxValue and finds a far value through a hint', async (t) => {
    const far = times(987_654_321_000n);
    t.equal(table.decode(far, { maxValue: 100_000n }), null);
    t.equal(table.decode(times(100_001n), { maxValue: 100_000n }), null, 'just above the bound');
    t.equal(table.decode(far, { maxValue: 10n ** 12n, hints: [5n, 987_654_321_000n] }), 987_654_321_000n);
    t.equal(table.decode(times(42n), { hints: [41n, 43n] }), 42n, 'wrong hints fall back to the search');
  });

  t.test('a serialised table loads back and decodes the same', async (t) => {
    const again = core.loadBalanceTable(Uint8Array.from(table.serialize()));
    t.equal(again.bits, 10);
    t.equal(again.decode(times(77_777n), { maxValue: 100_000n }), 77_777n);
  });

  t.test('bad tables, sizes and points are rejected with clear errors', async (t) => {
    const bytes = table.serialize();
    t.throws(() => core.loadBalanceTable(bytes.subarray(0, bytes.length - 8)), /truncated|size/);
    t.throws(() => core.loadBalanceTable(new Uint8Array(100)), /not a balance table/);
    t.throws(() => core.buildBalanceTable(BASE, 7), /bits/);
    t.throws(() => core.buildBalanceTable(BASE, 25), /bits/);
    t.throws(() => core.buildBalanceTable(new Uint8Array(64)), /finite/);
    const offCurve = Uint8Array.from(BASE);
    offCurve[63]! ^= 1;
    t.throws(() => table.decode(offCurve), /curve/);
    t.throws(() => core.buildBalanceTable(offCurve, 10), /curve/);
  });

  t.test('the disk cache builds once, then reloads; a damaged file is rebuilt', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'umbra-balance-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const older = balanceTablePath(core, { dir, base: BASE, bits: 9 }, 1);
    writeFileSync(older, 'a table in the first format');
    const first = loadOrBuildBalanceTable(core, { dir, base: BASE, bits: 9 });
    const path = balanceTablePath(core, { dir, base: BASE, bits: 9 });
    t.ok(existsSync(path), 'written to disk');
    t.not(path, older, 'the format is in the name');
    t.notOk(existsSync(older), 'the same table in an older format is removed');
    const written = statSync(path).mtimeMs;
    const second = loadOrBuildBalanceTable(core, { dir, base: BASE, bits: 9 });
    t.equal(statSync(path).mtimeMs, written, 'not rewritten when valid');
    t.same(Buffer.from(second.serialize()), Buffer.from(first.serialize()));
    t.equal(second.decode(times(3_000n), { maxValue: 10_000n }), 3_000n);
    writeFileSync(path, 'garbage');
    const rebuilt = loadOrBuildBalanceTable(core, { dir, base: BASE, bits: 9 });
    t.equal(rebuilt.decode(times(511n)), 511n);
    t.equal(readFileSync(path).length, rebuilt.serialize().length, 'the damaged file was replaced');
    const unwritable = join(dir, 'a-file');
    writeFileSync(unwritable, '');
    const uncached = loadOrBuildBalanceTable(core, { dir: join(unwritable, 'sub'), base: BASE, bits: 8 });
    t.equal(uncached.decode(times(300n)), 300n, 'a directory that cannot be created still gives a working table');
  });
});

t.test(
  'native and fallback build byte-identical tables and decode each other’s',
  { skip: nativeMissing() },
  async (t) => {
    const { native, fallback } = await bothCores();
    const a = native.buildBalanceTable(BASE, 12);
    const b = fallback.buildBalanceTable(BASE, 12);
    t.ok(Buffer.from(a.serialize()).equals(Buffer.from(b.serialize())), 'same bytes');
    const crossed = fallback.loadBalanceTable(a.serialize());
    const crossedBack = native.loadBalanceTable(b.serialize());
    let mismatches = 0;
    for (let i = 0; i < 200; i++) {
      const value = BigInt(Math.floor(Math.random() * 3_000_000));
      const point = times(value);
      const results = [a.decode(point), crossed.decode(point), crossedBack.decode(point)];
      if (results.some((r) => r !== value)) mismatches++;
    }
    t.equal(mismatches, 0, '200 random values decode to themselves everywhere');
  },
);
