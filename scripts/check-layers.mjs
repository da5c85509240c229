#!/usr/bin/env node
// Fails when two folders import each other, directly or round a loop: the folder-level import graph of the source
// (every static import, type-only ones too; the plugin catalog's dynamic imports excluded) must have no cycle. A
// folder here is a package: each layer (core-native/ts, protocol, host, wallet, cli) and each plugin (plugins/NAME);
// the subfolders inside one are its own business. `--print` also lists the graph. `make lint` runs it beside
// dependency-cruiser's file-level rules (.dependency-cruiser.cjs).
import { cruise } from 'dependency-cruiser';

const SOURCE = ['core-native/ts', 'protocol', 'host', 'wallet', 'plugins', 'cli'];
const result = await cruise(SOURCE, {
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  validate: false,
  ruleSet: {},
  tsConfig: { fileName: 'tsconfig.json' },
  enhancedResolveOptions: { extensions: ['.ts', '.js'] },
});

const inSource = (path) => SOURCE.some((root) => path.startsWith(`${root}/`));
/** The package a source file belongs to: its layer, or plugins/NAME. */
const folderOf = (path) =>
  path.startsWith('plugins/') ? path.split('/', 2).join('/') : SOURCE.find((root) => path.startsWith(`${root}/`));
const graph = new Map();
for (const module of result.output.modules) {
  if (!inSource(module.source)) continue;
  const from = folderOf(module.source);
  if (!graph.has(from)) graph.set(from, new Set());
  for (const dependency of module.dependencies) {
    if (!inSource(dependency.resolved) || dependency.dependencyTypes.includes('dynamic-import')) continue;
    const to = folderOf(dependency.resolved);
    if (to !== from) graph.get(from).add(to);
  }
}

/** Tarjan's strongly connected components: every component of more than one folder is a cycle. */
function cycles() {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (folder) => {
    index.set(folder, next);
    low.set(folder, next++);
    stack.push(folder);
    onStack.add(folder);
    for (const to of graph.get(folder) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder), low.get(to)));
      } else if (onStack.has(to)) low.set(folder, Math.min(low.get(folder), index.get(to)));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) found.push(component.sort());
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return found;
}

if (process.argv.includes('--print'))
  for (const [from, to] of [...graph].sort()) console.log(`${from} → ${[...to].sort().join(', ') || '(nothing)'}`);
const loops = cycles();
for (const loop of loops) {
  const arrows = loop.flatMap((from) =>
    [...graph.get(from)].filter((to) => loop.includes(to)).map((to) => `${from} → ${to}`),
  );
  console.error(`folders in a cycle: ${loop.join(', ')}\n  ${arrows.join('\n  ')}`);
}
if (loops.length > 0) process.exit(1);
console.log(`folder graph: ${graph.size} folders, no cycle`);
