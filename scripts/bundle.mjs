#!/usr/bin/env node
// Bundles each program Umbra starts (the CLI, and the worker threads and helper process it starts by file path) into
// dist/bundle/, so that a node reads a few files instead of hundreds of modules (docs/operations.md § Memory).
// Every output lands in that one directory: a worker is found beside the code that starts it
// (`new URL('./verify-worker.js', import.meta.url)`), and paths climbing to the repository (package.json, the native
// addon, the contract examples) climb from the same depth as in dist/<layer>/; the web wallet's page (built into
// dist/ first) is copied beside them. What a subcommand or plugin imports
// lazily stays a chunk of its own, read only when it is used. Packages with native code stay in node_modules.
import { cpSync, rmSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');

/** Output name → source: the names the code starts them by. */
const ENTRY_POINTS = {
  umbra: 'cli/umbra.ts',
  'verify-worker': 'core-native/ts/proof/verify-worker.ts',
  'pow-check-worker': 'core-native/ts/pow-check-worker.ts',
  'pow-worker': 'host/mining/pow-worker.ts',
  'registration-pow-worker': 'wallet/registration-pow-worker.ts',
  'prover-process': 'plugins/simulator/prover-process.ts',
};

/** Packages that load a compiled addon from their own directory. */
const NATIVE_PACKAGES = ['@nxtedition/rocksdb', 'cbor-extract'];

/**
 * An ES module's `import … from 'node:http'` makes Node build that module's whole namespace, running the getters of
 * http.WebSocket, CloseEvent and MessageEvent, which load undici (Node's fetch and WebSocket client: ≈ 0.7 MB of source
 * and ≈ 10 MiB resident in an idle daemon) though the node never uses them. In the bundle, node:http comes from
 * require() instead, with every export but those three (a bundled module importing one of them fails the build).
 */
const UNDICI_EXPORTS = new Set(['WebSocket', 'CloseEvent', 'MessageEvent']);
const httpWithoutUndici = {
  name: 'http-without-undici',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.kind === 'require-call' ? undefined : { path: 'node:http', namespace: 'http-without-undici' },
    );
    build.onLoad({ filter: /.*/, namespace: 'http-without-undici' }, () => {
      const names = Object.keys(http).filter((name) => !UNDICI_EXPORTS.has(name));
      const contents = `const http = require('node:http');\nexport default http;\nexport const { ${names.join(', ')} } = http;\n`;
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The noise package's default primitives instantiate two WebAssembly modules when imported (≈ 10 MiB resident in a
 * bare Node process, ≈ 2.5 MiB of an idle daemon). The node hands Noise its own primitives on Node's crypto
 * (plugins/p2p/noise-crypto.ts), so in the bundle that default is the package's own browser one, plain JavaScript
 * that is never called.
 */
const noiseWithoutWasm = {
  name: 'noise-without-wasm',
  setup(build) {
    build.onResolve({ filter: /^\.\/crypto\/index\.js$/ }, (args) =>
      args.importer.includes(join('@chainsafe', 'libp2p-noise'))
        ? { path: join(dirname(args.importer), 'crypto', 'index.browser.js') }
        : undefined,
    );
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ENTRY_POINTS,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: NATIVE_PACKAGES,
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);",
  },
  // Less source for V8 to hold (≈ 2.5 MiB of an idle daemon); names are kept, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  plugins: [httpWithoutUndici, noiseWithoutWasm],
  logLevel: 'warning',
});

// The web wallet's page, which its plugin reads from ./assets beside its code: in the bundle, beside the chunks.
cpSync(join(root, 'dist', 'plugins', 'web-wallet', 'assets'), join(outdir, 'assets'), { recursive: true });
