#!/usr/bin/env node
// Runs every compiled benchmark in dist/bench (or the one named), each writing bench/results/<name>.json, on the
// project's Node (scripts/project-node.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { requireNodeForProject } from './project-node.mjs';

const wanted = process.argv[2];
const available = existsSync('dist/bench')
  ? readdirSync('dist/bench')
      .filter((f) => f.endsWith('.js') && f !== 'harness.js')
      .map((f) => f.slice(0, -3))
      .sort()
  : [];
if (wanted && !available.includes(wanted)) {
  console.error(`no benchmark named ${wanted} (available: ${available.join(', ') || 'none'})`);
  process.exit(1);
}
const node = requireNodeForProject('.');
let failed = false;
for (const name of wanted ? [wanted] : available) {
  console.log(`\n== bench ${name}`);
  const run = spawnSync(node, ['--expose-gc', `dist/bench/${name}.js`], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
