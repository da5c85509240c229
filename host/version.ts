/** Umbra's version, from package.json (shown by `umbra --version` and NODE.GetInfo's `version`). */
import { readFileSync } from 'node:fs';

const packageJson = new URL('../../package.json', import.meta.url);

export const UMBRA_VERSION: string = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
