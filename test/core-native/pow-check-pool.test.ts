/** The proof-of-work pool: the same verdicts as hashing on this thread, progress per chunk, and a closed pool refuses. */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { PowCheckPool } from '../../core-native/ts/pow-check-pool.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';

const core = await loadCore();

t.test('verdicts match hashing here, in order, with progress after every chunk', async (t) => {
  const pool = new PowCheckPool({ impl: core.impl, size: 2 });
  t.teardown(() => pool.close());
  // Difficulty 3 passes about one hash in three: both verdicts occur.
  const items = Array.from({ length: 45 }, (_, i) => ({ blob: randomBytes(48), difficulty: i % 5 === 0 ? 1n : 3n }));
  const progress: number[] = [];
  const verdicts = await pool.check(items, (checked) => progress.push(checked));
  t.same(
    verdicts,
    items.map((item) => meetsTarget(core.powHash(item.blob), item.difficulty)),
  );
  t.ok(verdicts.includes(true) && verdicts.includes(false), 'both verdicts occur');
  t.equal(progress.length, 5, 'progress after every chunk of ten');
  t.same(
    progress,
    [...progress].sort((x, y) => x - y),
    'counting up',
  );
  t.equal(progress.at(-1), 45, 'to all of them');
  t.same(await pool.check([]), [], 'nothing to check');
});

t.test('a closed pool refuses work', async (t) => {
  const pool = new PowCheckPool({ size: 1 });
  await pool.close();
  await t.rejects(pool.check([{ blob: new Uint8Array(48), difficulty: 1n }]), /the proof-of-work pool is closed/);
});
