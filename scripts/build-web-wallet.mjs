#!/usr/bin/env node
// Builds the web wallet's page (plugins/web-wallet/ui): type-checks it with the DOM's types, then bundles it with
// esbuild — the script with Preact and the QR code library, and the style sheet, both minified — into
// dist/plugins/web-wallet/assets/, where the plugin serves them from. `make build` runs it after tsc.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UI = join(ROOT, 'plugins', 'web-wallet', 'ui');
const OUT = join(ROOT, 'dist', 'plugins', 'web-wallet', 'assets');

try {
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(UI, 'tsconfig.json')],
    {
      stdio: 'inherit',
    },
  );
} catch {
  console.error('the web wallet page does not type-check (above)');
  process.exit(1);
}
await build({
  // main.tsx imports the style sheet: esbuild writes it beside the script, as app.css.
  entryPoints: { app: join(UI, 'main.tsx') },
  outdir: OUT,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
console.log(`web wallet page built in ${OUT}`);
