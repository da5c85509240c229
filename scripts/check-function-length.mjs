#!/usr/bin/env node
// Fails when a function in the folders below runs over MAX_LINES lines: the proof code, the contract language and
// the consensus RPC methods are where a reviewer must hold a whole function in mind at once. A function's span runs from
// its first line (doc comment excluded) to its closing line; a nested function counts toward its parent too.
// `make lint` runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const MAX_LINES = 80;
const FOLDERS = ['core-native/ts/proof', 'plugins/dvm', 'plugins/consensus/rpc'];

/** Every .ts file under a folder of the repository, subfolders included, as repository-relative paths. */
function sourceFiles(folder) {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** A readable name for a function-like node: its own, its variable's or property's, else its kind. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText();
  return `(${ts.SyntaxKind[node.kind]})`;
}

/** One line per function-like node of a file (methods, arrows and nested functions too) that is over MAX_LINES. */
function tooLong(file) {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const findings = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) findings.push(`${file}:${first + 1}: ${nameOf(node)} is ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

const files = FOLDERS.flatMap(sourceFiles);
const findings = files.flatMap(tooLong);
if (findings.length > 0) {
  console.error(`functions over ${MAX_LINES} lines (split them into named steps):\n${findings.join('\n')}`);
  process.exit(1);
}
console.log(`function length: none over ${MAX_LINES} lines in ${FOLDERS.join(', ')} (${files.length} files)`);
