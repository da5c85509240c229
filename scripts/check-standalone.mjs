#!/usr/bin/env node
// Fails when a tracked file names a path outside the repository: every fact the code relies on is stated in docs/,
// so a clone needs nothing beside it. The patterns are assembled at run time so this file does not match itself.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const outside = [
  ['\\.\\.', 'shared(?![\\w-])'].join('/'),
  ['reference', '[a-z]+\\.md'].join('-'),
  ['reference', '(protocol|rpc|dvm)\\b'].join('-'),
  ['SERVICE', 'md'].join('\\.'),
  ['DESIGN', 'md'].join('\\.'),
];
const pattern = new RegExp(outside.join('|'));
const skipped = new Set(['package-lock.json']);

const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
const findings = [];
for (const file of files) {
  if (skipped.has(file)) continue;
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed but deleted in the working tree
  }
  text.split('\n').forEach((line, index) => {
    if (pattern.test(line)) findings.push(`${file}:${index + 1}: ${line.trim()}`);
  });
}
if (findings.length > 0) {
  console.error(
    `files name paths outside the repository (state the fact in docs/ and cite that):\n${findings.join('\n')}`,
  );
  process.exit(1);
}
console.log(`standalone: no tracked file names a path outside the repository (${files.length} files)`);
