#!/usr/bin/env node
// Runs the whole test suite (compiled tests in dist/test) with tap and ends with one line `N passed, N failed`,
// counting individual assertions (tap's own summary counts files). Exit code: tap's. The tests run on the project's
// Node (scripts/project-node.mjs), whichever Node started this script.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { requireNodeForProject } from './project-node.mjs';

function findTests(dir) {
  let files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files = files.concat(findTests(path));
    else if (name.endsWith('.test.js')) files.push(path);
  }
  return files;
}

const filters = process.argv.slice(2);
const files = findTests('dist/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files found in dist/test (run `make` first)');
  process.exit(1);
}

const node = requireNodeForProject('.');
const nodeVersion = node === process.execPath ? process.version : execFileSync(node, ['--version']).toString().trim();
console.log(`# tests run on Node ${nodeVersion} (${node})`);

// tap runs each test file with the Node that runs tap.
const tap = spawn(node, ['node_modules/.bin/tap', '--reporter=tap', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let passed = 0;
let failed = 0;
let skipped = 0;
let previousIndent = -1;
let pending = '';
const failures = [];
// The open subtests, outermost first (tap announces each with `# Subtest: NAME`), so that a failure names its file and
// the tests around it, not only its assertion.
const subtests = [];

function onLine(line) {
  const point = /^(\s*)(not ok|ok) \d+(?: - (.*?))?(\s+#\s*(SKIP|TODO)\b.*)?$/i.exec(line);
  const plan = /^(\s*)1\.\.\d+/.exec(line);
  const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
  if (subtest) {
    const indent = subtest[1].length;
    while (subtests.length && subtests[subtests.length - 1].indent >= indent) subtests.pop();
    subtests.push({ indent, name: subtest[2], failed: 0 });
  } else if (point) {
    const indent = point[1].length;
    let closed;
    while (subtests.length && subtests[subtests.length - 1].indent >= indent) closed = subtests.pop();
    // A point less indented than the line before it closes a subtest: it summarises, it is not an assertion. Unless
    // the subtest failed with no failing assertion of its own (a crash, a timeout): that is a failure to count.
    const closesSubtest = indent < previousIndent;
    const silentFailure =
      closesSubtest && point[2] !== 'ok' && !point[5] && closed?.indent === indent && !closed.failed;
    if (!closesSubtest || silentFailure) {
      if (point[5] && point[5].toUpperCase() === 'SKIP') skipped++;
      else if (point[2] === 'ok' || point[5]) passed++;
      else {
        failed++;
        for (const open of subtests) open.failed++;
        const name = silentFailure ? `${closed.name} (failed without a failing assertion: see its output)` : point[3];
        failures.push([...subtests.map((t) => t.name), name ?? '(unnamed)'].join(' > '));
      }
    }
    previousIndent = indent;
  } else if (plan) {
    previousIndent = Math.max(previousIndent, plan[1].length);
  }
}

tap.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop();
  lines.forEach(onLine);
});

tap.on('close', (code) => {
  if (pending) onLine(pending);
  const listed = failures.slice(0, 50).map((f) => `  ${f}`);
  if (listed.length) console.log(`\nfailed:\n${listed.join('\n')}`);
  if (code !== 0 && failed === 0) failed = 1; // tap failed for a reason no assertion shows (a timeout, a crash)
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
