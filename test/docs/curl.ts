/**
 * Runs a documented `curl` command the way the shell would, with fetch: `-d '…'` posts JSON to the URL, and
 * `--data-binary @FILE` posts the file (relative to the repository). Documented addresses are the simulator's default
 * ports; `baseUrl` maps each port to where the test's simulator really listens.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';

export interface CurlAnswer {
  /** The JSON-RPC method the command calls, or the path for a plain HTTP post (`install_sc`). */
  method: string;
  status: number;
  body: string;
}

export async function runCurl(command: string, baseUrl: (port: number) => string): Promise<CurlAnswer> {
  const url = /http:\/\/127\.0\.0\.1:(\d+)(\/\S*)/.exec(command);
  if (!url) throw new Error(`no 127.0.0.1 URL in: ${command}`);
  const json = /-d '([^']*)'/.exec(command);
  const file = /--data-binary @(\S+)/.exec(command);
  if (!json && !file) throw new Error(`no request body in: ${command}`);
  const body = json ? json[1]! : readFileSync(join(REPO_ROOT, file![1]!), 'utf8');
  const method = json ? (JSON.parse(body) as { method: string }).method : url[2]!.replace(/^\//, '');
  const response = await fetch(`${baseUrl(Number(url[1]))}${url[2]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { method, status: response.status, body: await response.text() };
}
