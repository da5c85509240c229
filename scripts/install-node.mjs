#!/usr/bin/env node
// `make` runs this first, on the machine's own Node. Where that Node is older than 22, it installs the project's
// Node 24 from the npm registry into .node/ (gitignored, and apart from node_modules/ so `npm install` never prunes
// it); the Makefile puts .node/bin first on PATH and bin/umbra runs on it. On Node 22 or newer nothing is
// downloaded, and a .node/ left from an older machine Node is removed so that one Node runs everything.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isSupportedNode,
  MINIMUM_NODE_MAJOR,
  PROJECT_NODE_PACKAGE,
  PROJECT_NODE_VERSION,
  projectNodeBinary,
  projectNodePrefix,
} from './project-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = projectNodePrefix(root);

// Run by a Node from .node/ itself (its bin/ is on the caller's PATH), it cannot see the machine's Node: keep ours.
const runningOwnNode = realpathSync(process.execPath).startsWith(prefix + sep);
if (isSupportedNode() && !runningOwnNode) {
  if (existsSync(prefix)) {
    rmSync(prefix, { recursive: true, force: true });
    console.log(`Node ${process.version} is new enough: removed the project's own Node from .node/`);
  }
  process.exit(0);
}

const binary = projectNodeBinary(root);
if (existsSync(binary) && execFileSync(binary, ['--version']).toString().trim() === `v${PROJECT_NODE_VERSION}`) {
  process.exit(0);
}

console.log(
  `Node ${process.version} is older than ${MINIMUM_NODE_MAJOR}: installing Node ${PROJECT_NODE_VERSION} into .node/`,
);
rmSync(prefix, { recursive: true, force: true });
// A global install under our own prefix gives .node/bin/node and touches neither package.json nor node_modules/.
execFileSync(
  'npm',
  [
    'install',
    '--global',
    '--prefix',
    prefix,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `${PROJECT_NODE_PACKAGE}@${PROJECT_NODE_VERSION}`,
  ],
  { stdio: 'inherit' },
);
