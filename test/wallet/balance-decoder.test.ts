import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { balanceTablePath } from '../../core-native/ts/balance-cache.js';
import { loadCore } from '../../core-native/ts/index.js';
import { BalanceDecoder } from '../../wallet/balance-decoder.js';
import { forEachCore } from '../helpers/core-impls.js';

t.test('decoders of one process share the table: a second decoder reads no file and builds none', async (t) => {
  await forEachCore(t, async (t, core) => {
    const { G } = core.generators('UMBRA test shared table');
    const dir = mkdtempSync(join(tmpdir(), 'umbra-shared-table-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const first = new BalanceDecoder(core, G, dir);
    const point = core.g1Mul(G, bigintToBytes32BE(12_345n));
    t.equal(first.decodePoint(point), 12_345n);
    const path = balanceTablePath(core, { dir, base: G });
    t.ok(existsSync(path), 'the first decode built the table and cached it');

    rmSync(dir, { recursive: true, force: true });
    // Another core instance of the same implementation, as each wallet app of `umbra simulator` loads its own.
    const second = new BalanceDecoder(await loadCore({ impl: core.impl }), G, dir);
    t.equal(second.decodePoint(point), 12_345n);
    t.notOk(existsSync(path), 'the second decoder used the table in memory: nothing was rebuilt or written');

    const elsewhere = mkdtempSync(join(tmpdir(), 'umbra-own-table-'));
    t.teardown(() => rmSync(elsewhere, { recursive: true, force: true }));
    t.equal(new BalanceDecoder(core, G, elsewhere).decodePoint(point), 12_345n);
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
    t.notOk(existsSync(balanceTablePath(core, { dir, base: G })), 'no table was built');
    t.equal(decoder.decodePoint(point, [5n]), 800_000n, 'wrong hints: the table decodes it');
    t.ok(existsSync(balanceTablePath(core, { dir, base: G })));
  });
});
