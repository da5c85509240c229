import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { balanceTablePath } from '../../core-native/ts/balance-cache.js';
import { loadCore } from '../../core-native/ts/index.js';
import { BalanceDecoder, SMALL_TABLE_BITS } from '../../wallet/balance-decoder.js';
import { forEachCore } from '../helpers/core-impls.js';

/** An amount beyond the small table's reach: only the full table decodes it. */
const LARGE = (1n << 24n) + 12_345n;

t.test('decoders of one process share the table: a second decoder reads no file and builds none', async (t) => {
  await forEachCore(t, async (t, core) => {
    const { G } = core.generators('UMBRA test shared table');
    const dir = mkdtempSync(join(tmpdir(), 'umbra-shared-table-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const first = new BalanceDecoder(core, G, dir);
    const point = core.g1Mul(G, bigintToBytes32BE(LARGE));
    t.equal(first.decodePoint(point), LARGE);
    const path = balanceTablePath(core, { dir, base: G });
    t.ok(existsSync(path), 'the first decode built the table and cached it');

    rmSync(dir, { recursive: true, force: true });
    // Another core instance of the same implementation, as each wallet app of `umbra simulator` loads its own.
    const second = new BalanceDecoder(await loadCore({ impl: core.impl }), G, dir);
    t.equal(second.decodePoint(point), LARGE);
    t.notOk(existsSync(path), 'the second decoder used the table in memory: nothing was rebuilt or written');

    const elsewhere = mkdtempSync(join(tmpdir(), 'umbra-own-table-'));
    t.teardown(() => rmSync(elsewhere, { recursive: true, force: true }));
    t.equal(new BalanceDecoder(core, G, elsewhere).decodePoint(point), LARGE);
    t.ok(existsSync(balanceTablePath(core, { dir: elsewhere, base: G })), 'another cache directory has its own table');
  });
});

t.test('a balance one of the hints gives is decoded without the table, which is not even loaded', async (t) => {
  await forEachCore(t, async (t, core) => {
    const { G } = core.generators('UMBRA test hinted balance');
    const dir = mkdtempSync(join(tmpdir(), 'umbra-hinted-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const decoder = new BalanceDecoder(core, G, dir);
    const point = core.g1Mul(G, bigintToBytes32BE(800_000n));
    t.equal(decoder.decodePoint(point, [5n, -1n, 800_000n]), 800_000n);
    t.same(readdirSync(dir), [], 'no table was built');
    t.equal(decoder.decodePoint(point, [5n]), 800_000n, 'wrong hints: a table decodes it');
    t.not(readdirSync(dir).length, 0);
  });
});

t.test('an amount below 2^24 is decoded with the small table: the full one is not loaded', async (t) => {
  await forEachCore(t, async (t, core) => {
    const { G } = core.generators('UMBRA test small table');
    const dir = mkdtempSync(join(tmpdir(), 'umbra-small-table-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const decoder = new BalanceDecoder(core, G, dir);
    for (const amount of [0n, 1n, 800_020n, (1n << 24n) - 1n])
      t.equal(decoder.decodePoint(core.g1Mul(G, bigintToBytes32BE(amount))), amount);
    const full = existsSync(balanceTablePath(core, { dir, base: G }));
    // The fallback's full table is no larger than the small one: it is the one table there.
    t.equal(
      full,
      core.defaultBalanceTableBits <= SMALL_TABLE_BITS,
      'the full table is built only where it is the small one',
    );
    t.equal(
      decoder.decodePoint(core.g1Mul(G, bigintToBytes32BE(LARGE))),
      LARGE,
      'a larger amount loads the full table',
    );
    t.ok(existsSync(balanceTablePath(core, { dir, base: G })));
  });
});
