/**
 * The sync progress reporter: its lines and figures on a fake clock, and the lines a fresh node logs while it
 * catches up from a peer.
 */
import t from 'tap';
import { DEFAULT_SETTINGS } from '../../../plugins/p2p/p2p-node.js';
import { SyncProgress } from '../../../plugins/p2p/sync-progress.js';
import { converged, mine, startNode, waitUntil } from '../../helpers/p2p.js';

function reporter(everyMs = 5000) {
  let now = 1_000_000;
  const lines: string[] = [];
  const progress = new SyncProgress(
    (line) => lines.push(line),
    everyMs,
    () => now,
  );
  return { progress, lines, tick: (ms: number) => (now += ms) };
}

t.test('a line every interval while behind, with percentage, rate and ETA', async (t) => {
  const { progress, lines, tick } = reporter();
  progress.begin(0, 5000);
  tick(1000);
  progress.advance(100, 5000);
  t.same(lines, [], 'nothing before the interval has passed');
  tick(13_500);
  progress.advance(1234, 5000);
  // 1234 blocks in 14.5 s: 85.1 blocks/s; 3766 left: 44.2 s.
  t.same(lines, ['sync: 1234 / 5000 blocks (24.6 %), 85 blocks/s, ETA 44 s']);
  tick(1000);
  progress.advance(1300, 5000);
  t.equal(lines.length, 1, 'at most one line per interval');
  tick(4500);
  // 2000 blocks in 20 s.
  progress.advance(2000, 5000);
  t.equal(lines[1], 'sync: 2000 / 5000 blocks (40.0 %), 100 blocks/s, ETA 30 s');
});

t.test('the figures of the running sync', async (t) => {
  const { progress, tick } = reporter();
  t.equal(progress.snapshot(), undefined, 'none before a sync');
  progress.begin(1000, 61_000);
  t.same(progress.snapshot(), {
    height: 1000,
    target: 61_000,
    percent: 1.6,
    blocksPerSecond: 0,
    etaSeconds: undefined,
  });
  tick(10_000);
  progress.advance(1500, 61_000);
  const figures = progress.snapshot()!;
  t.equal(figures.blocksPerSecond, 50, 'blocks added since the sync began (not since genesis) per second');
  t.equal(figures.etaSeconds, 1190);
});

t.test('long ETAs in minutes and hours; no rate yet is said so', async (t) => {
  const { progress, lines, tick } = reporter(1000);
  progress.begin(0, 1_000_000);
  tick(1000);
  progress.advance(0, 1_000_000);
  t.equal(lines[0], 'sync: 0 / 1000000 blocks (0.0 %), 0 blocks/s, ETA unknown');
  tick(1000);
  progress.advance(200, 1_000_000);
  t.equal(lines[1], 'sync: 200 / 1000000 blocks (0.0 %), 100 blocks/s, ETA 2 h 46 min');
  tick(1000);
  progress.advance(999_999, 1_000_000);
  t.equal(lines[2], 'sync: 999999 / 1000000 blocks (99.9 %), 333333 blocks/s, ETA 0 s', 'not 100 % while behind');
});

t.test('caught up: one last line when the sync ends at the peers’ height, none when it ends behind', async (t) => {
  const { progress, lines, tick } = reporter();
  progress.begin(10, 500);
  tick(60_000);
  progress.advance(500, 500);
  t.same(lines, [], 'no progress line once at the target');
  progress.end(500, 500);
  t.same(lines, ['sync: caught up at height 500']);
  t.equal(progress.snapshot(), undefined, 'no running sync after the end');
  progress.end(500, 500);
  t.equal(lines.length, 1, 'a sync ends once');

  progress.begin(500, 900);
  progress.end(700, 900);
  t.equal(lines.length, 1, 'a sync that stopped behind the peers does not claim to have caught up');
});

t.test('a fresh node logs its progress while it catches up, then that it caught up', async (t) => {
  // One line per batch of blocks: a sync of a few hundred blocks on loopback takes well under the default interval.
  DEFAULT_SETTINGS.syncProgressMs = 0;
  const a = await startNode('a', {}, t);
  await mine(a, 300);
  const fresh = await startNode('fresh', { addPeers: [a.address] }, t);
  await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
  await waitUntil('the sync has ended', () => fresh.logLines.some((line) => line.includes('caught up')));
  const progress = fresh.logLines.filter((line) => / sync: \d+ \/ 300 blocks/.test(line));
  t.ok(progress.length >= 2, `progress lines while behind (${progress.length})`);
  t.match(progress[0], /sync: \d+ \/ 300 blocks \(\d+\.\d %\), \d+ blocks\/s, ETA (\d+ s|unknown)$/);
  t.ok(
    fresh.logLines.some((line) => /INFO .*sync: caught up at height 300$/.test(line)),
    'the last line says it caught up',
  );
  t.notOk(
    a.logLines.some((line) => line.includes(' sync: ')),
    'the node that was ahead logs no progress',
  );
});
