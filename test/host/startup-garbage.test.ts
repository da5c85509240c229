/**
 * After start-up's garbage is released, V8's young generation holds no more pages than it needs; without V8's gc()
 * exposed, the release does nothing. Each case runs in a Node of its own, with its own flags.
 */
import { execFileSync } from 'node:child_process';
import t from 'tap';

const MODULE = new URL('../../host/startup-garbage.js', import.meta.url).href;

/** The young generation's resident MiB after a start-up-like burst of garbage, then after the release. */
const youngGeneration = (flags: string[]): { before: number; after: number } => {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { releaseStartupGarbage } from ${JSON.stringify(MODULE)};
    const resident = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').physical_space_size / 1048576;
    let kept = [];
    for (let i = 0; i < 400_000; i++) { kept.push({ i, text: 'entry ' + i }); if (kept.length > 50_000) kept = []; }
    kept = undefined;
    const before = resident();
    releaseStartupGarbage();
    console.log(JSON.stringify({ before, after: resident() }));`;
  const out = execFileSync(
    process.execPath,
    [...flags, '--max-semi-space-size=32', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
};

t.test('with gc() exposed, the young generation gives its pages back', async (t) => {
  const { before, after } = youngGeneration(['--expose-gc']);
  t.ok(before >= 4, `start-up grew it (${before.toFixed(1)} MiB resident)`);
  t.ok(after <= 1, `then ${after.toFixed(1)} MiB`);
});

t.test('without gc(), nothing happens', async (t) => {
  const { before, after } = youngGeneration([]);
  t.equal(after, before);
});
