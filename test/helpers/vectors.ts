/** Loads a JSON vector file from test/vectors/ (the source tree, not dist/). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export function loadVectors<T = any>(name: string): T {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'vectors', name), 'utf8')) as T;
}
