#!/usr/bin/env node
// Runs every compiled benchmark in dist/bench (or the one named), each writing bench/results/<name>.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const wanted = process.argv[2];
const available = existsSync('dist/bench')
  ? readdirSync('dist/bench').filter((f) => f.endsWith('.js') && f !== 'harness.js').map((f) => f.slice(0, -3)).sort()
  : [];
if (wanted && !available.includes(wanted)) {
  console.error(`no benchmark named ${wanted} (available: ${available.join(', ') || 'none'})`);
  process.exit(1);
}
let failed = false;
for (const name of wanted ? [wanted] : available) {
  console.log(`\n== bench ${name}`);
  const run = spawnSync(process.execPath, ['--expose-gc', `dist/bench/${name}.js`], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
