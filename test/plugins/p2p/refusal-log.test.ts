/** Refused inbound connections in the debug log: the first at once, then one summary per period, however many. */
import t from 'tap';
import { RefusalLog, SUMMARY_MS } from '../../../plugins/p2p/refusal-log.js';

t.test('the first refusal is logged as it happens; the rest of its period in one line with the next', async (t) => {
  const lines: string[] = [];
  let now = 1_000_000;
  const log = new RefusalLog(
    (line) => lines.push(line),
    () => now,
  );
  log.note('10.0.0.1', 'network');
  t.same(lines, [
    'refused an inbound connection from 10.0.0.1 before its handshake: its network holds its share of handshakes in progress',
  ]);
  for (let i = 0; i < 500; i++) {
    now += 10;
    log.note(`10.0.${i % 16}.2`, i % 5 === 0 ? 'banned' : 'address');
  }
  t.equal(lines.length, 1, 'nothing more within the period');
  now += SUMMARY_MS;
  log.note('10.9.9.9', 'address');
  t.same(lines.slice(1), [
    'refused 500 more inbound connections from 16 addresses in 15 s: 100 banned; 400 the address holds its share of connections',
    'refused an inbound connection from 10.9.9.9 before its handshake: the address holds its share of connections',
  ]);
  now += 2 * SUMMARY_MS;
  log.note('10.9.9.9', 'banned');
  t.equal(lines.length, 4, 'a period with no other refusal has no summary');
  t.match(lines[3], /^refused an inbound connection from 10\.9\.9\.9 before its handshake: banned$/);
});
