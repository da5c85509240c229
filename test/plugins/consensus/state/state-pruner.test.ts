import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { toHex } from '../../../../protocol/bytes.js';
import type { KeyValueStore } from '../../../../host/storage/kv-store.js';
import { MemoryStore } from '../../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../../host/storage/rocksdb-store.js';
import { heldWholeKey, type StateDb } from '../../../../plugins/consensus/state/state-db.js';
import { StatePruner, type Exclusive } from '../../../../plugins/consensus/state/state-pruner.js';
import {
  commitHistory,
  openStateDb,
  reachableNodeCount,
  readVersion,
  storedNodeCount,
} from '../../../helpers/state-history.js';

const atOnce: Exclusive = (write) => write();
const stores: [string, () => Promise<KeyValueStore>][] = [
  ['memory', async () => new MemoryStore()],
  ['rocksdb', () => RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-prune-')))],
];
const KEEP_FROM = 30n;

async function hashesOf(hashes: AsyncIterable<Uint8Array>): Promise<string[]> {
  const hex: string[] = [];
  for await (const hash of hashes) hex.push(toHex(hash));
  return hex;
}

async function markEveryNodeHeldWhole(db: StateDb): Promise<void> {
  const batch = db.store.batch();
  for await (const hash of db.nodeHashes(0, 256)) batch.put(heldWholeKey(hash), new Uint8Array(0));
  await batch.write();
}

for (const [kind, open] of stores) {
  for (const markBudget of [1_000_000, 40]) {
    t.test(
      `pruning on ${kind} (mark budget ${markBudget}) keeps every kept root and deletes only the rest`,
      async (t) => {
        const store = await open();
        t.teardown(() => store.close());
        const db = openStateDb(store);
        await commitHistory(db, 50);
        const before = await storedNodeCount(db);
        // As after a snapshot import: every stored subtree marked held whole.
        await markEveryNodeHeldWhole(db);
        const expected = new Map<bigint, { root: string; content: ReturnType<typeof readVersion> }>();
        for (let version = KEEP_FROM; version <= db.latestVersion(); version++)
          expected.set(version, { root: toHex(db.snapshot(version).root), content: readVersion(store, version) });

        const report = await new StatePruner(db, { markBudget, batchSize: 50 }).prune(KEEP_FROM, atOnce);
        t.equal(report.versionsDropped, Number(KEEP_FROM), 'the versions below the kept one are dropped');
        if (markBudget < 100) t.ok(report.passes > 1, 'a small budget splits the marking into passes');

        const fresh = openStateDb(store);
        for (const [version, { root, content }] of expected) {
          t.equal(toHex(fresh.snapshot(version).root), root, `version ${version} has the same root`);
          t.same(readVersion(store, version), content, `version ${version} reads the same`);
        }
        t.throws(() => fresh.snapshot(KEEP_FROM - 1n), { name: 'StateError' }, 'a dropped version is gone');
        const after = await storedNodeCount(fresh);
        t.ok(after < before, `fewer nodes stored (${before} → ${after})`);
        t.equal(report.nodesDeleted, before - after);
        t.equal(after, await reachableNodeCount(fresh, KEEP_FROM), 'exactly the reachable nodes are left');
        t.same(
          await hashesOf(fresh.heldWholeHashes(0, 256)),
          await hashesOf(fresh.nodeHashes(0, 256)),
          'the held-whole marks of the swept subtrees are gone, those of the kept ones stay',
        );

        // The state goes on from the pruned store, and a second prune finds nothing more below the same version.
        await commitHistory(fresh, 5, 7);
        t.same((await new StatePruner(fresh).prune(KEEP_FROM, atOnce)).nodesDeleted, 0);
        t.ok(readVersion(store, fresh.latestVersion()), 'the newest version reads');
      },
    );
  }
}

t.test('versions committed while a prune runs keep every node they write', async (t) => {
  const store = new MemoryStore();
  const db = openStateDb(store);
  await commitHistory(db, 40);
  const committedDuringPrune: bigint[] = [];
  let writes = 0;
  // Between two sweep batches a block is stored, writing nodes the marking never saw.
  const exclusive: Exclusive = async (write) => {
    await write();
    if (++writes % 2 === 0) {
      await commitHistory(db, 1, writes);
      committedDuringPrune.push(db.latestVersion());
    }
  };
  await new StatePruner(db, { batchSize: 5 }).prune(20n, exclusive);
  t.ok(committedDuringPrune.length > 2, 'blocks were stored during the prune');
  for (const version of committedDuringPrune) t.ok(readVersion(store, version), `version ${version} reads whole`);
  t.ok(readVersion(store, 20n), 'the oldest kept version reads whole');
});

t.test('a prune killed with SIGKILL leaves every kept version whole, and the next prune finishes it', async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'umbra-prune-kill-'));
  let store = await RocksDbStore.open(directory);
  let db = openStateDb(store);
  await commitHistory(db, 60);
  const latest = db.latestVersion();
  const expected = new Map<bigint, ReturnType<typeof readVersion>>();
  for (let version = 40n; version <= latest; version++) expected.set(version, readVersion(store, version));
  const before = await storedNodeCount(db);
  await store.close();

  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, '../../../helpers/prune-child.js'), directory, '40'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let wrote = 0;
  const exited = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      wrote += chunk
        .toString()
        .split('\n')
        .filter((line) => line === 'wrote').length;
      if (wrote >= 12 && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => resolve(String(signal)));
  });
  t.equal(await exited, 'SIGKILL', 'the pruning process was killed mid-prune');

  store = await RocksDbStore.open(directory);
  t.teardown(() => store.close());
  db = openStateDb(store);
  const partly = await storedNodeCount(db);
  t.ok(partly < before, 'some nodes were deleted before the kill');
  for (const [version, content] of expected) t.same(readVersion(store, version), content, `version ${version} whole`);
  t.equal(db.latestVersion(), latest, 'the latest version is unchanged');
  await new StatePruner(db).prune(40n, atOnce);
  t.equal(await storedNodeCount(db), await reachableNodeCount(db, 40n), 'the next prune sweeps the rest');
  for (const [version, content] of expected) t.same(readVersion(store, version), content);
});
