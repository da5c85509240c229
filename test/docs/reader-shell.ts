/** Runs documented shell commands as a reader pasting them would: in a scratch checkout, with its own HOME. */
import { execFile } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/cli.js';

/** A scratch directory that looks like a checkout to the commands (`bin/`, `examples/`). */
export function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-docs-cli-'));
  for (const name of ['bin', 'examples']) symlinkSync(join(REPO_ROOT, name), join(dir, name));
  return dir;
}

/** Runs shell lines one after another in `dir` (HOME too), without the test runner's module loaders. */
export async function readerShell(dir: string, lines: string[]): Promise<{ stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env['NODE_OPTIONS'];
  return promisify(execFile)('bash', ['-e', '-c', lines.join('\n')], { cwd: dir, env, timeout: 120_000 });
}
