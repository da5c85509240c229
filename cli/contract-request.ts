/**
 * The request of `umbra contract run`, from the command line (FILE ENTRYPOINT NAME=VALUE… and flags) or from stdin
 * (`--json` without a file): the JSON request of contract-runner.ts.
 */
import { readFileSync } from 'node:fs';
import type { ContractVm } from '../host/services/contract-vm.js';
import { ContractCompileError } from '../host/services/contract-vm.js';
import { RunRequestError } from './contract-runner.js';

export interface RunOptions {
  json?: boolean;
  network: string;
  signer?: string;
  coinvalue?: string;
  asset: string[];
  balance: string[];
  store?: string;
  height?: string;
  timestamp?: string;
  scid?: string;
  blid?: string;
  txid?: string;
  fee?: string;
  state?: string;
  reset?: boolean;
}

/** The runner's request; `env` as given (the runner checks it). */
export interface RunRequest {
  code: unknown;
  entrypoint: unknown;
  args?: unknown;
  env?: Record<string, unknown>;
  store?: unknown;
}

export function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RunRequestError(
      `cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

export function parseRequest(text: string): RunRequest {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    throw new RunRequestError(`stdin is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    throw new RunRequestError('the request must be a JSON object with at least code and entrypoint');
  const env = (request as RunRequest).env;
  if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env)))
    throw new RunRequestError('env must be an object');
  return request as RunRequest;
}

/** NAME=VALUE pairs into sc_rpc arguments, typed by the entry point's parameters unless NAME:T=VALUE says. */
function commandLineArgs(
  pairs: string[],
  params: ReadonlyMap<string, 'Uint64' | 'String'>,
): { name: string; datatype: string; value: string }[] {
  return pairs.map((pair) => {
    const match = /^([^=:]+)(?::([SUH]))?=(.*)$/s.exec(pair);
    if (!match)
      throw new RunRequestError(
        `argument ${JSON.stringify(pair)} must be NAME=VALUE (or NAME:S=…, NAME:U=…, NAME:H=…)`,
      );
    // The name and value groups always take part in a match; only the type is optional.
    const [, name, explicit, value] = match;
    const datatype = explicit ?? (params.get(name!) === 'Uint64' ? 'U' : 'S');
    return { name: name!, datatype, value: value! };
  });
}

/** ASSET=AMOUNT flags into {asset id: amount}; `coin` is the native coin. */
function assetAmounts(list: string[], flag: string): Record<string, string> {
  return Object.fromEntries(
    list.map((item) => {
      const at = item.lastIndexOf('=');
      if (at < 1) throw new RunRequestError(`--${flag} ${item}: expected ASSET=AMOUNT`);
      const asset = item.slice(0, at) === 'coin' ? '0'.repeat(64) : item.slice(0, at);
      return [asset, item.slice(at + 1)];
    }),
  );
}

export function commandLineRequest(
  vm: Pick<ContractVm, 'compile'>,
  file: string | undefined,
  entrypoint: string | undefined,
  pairs: string[],
  options: RunOptions,
): RunRequest {
  if (!file || !entrypoint)
    throw new RunRequestError('give a contract file and an entry point (or --json with a request on stdin)');
  const code = readFile(file, 'contract file');
  let params = new Map<string, 'Uint64' | 'String'>();
  try {
    params = new Map(
      vm
        .compile(code)
        .functions.get(entrypoint)
        ?.params.map((p) => [p.name, p.type]) ?? [],
    );
  } catch (error) {
    if (!(error instanceof ContractCompileError)) throw error;
  }
  let store: unknown;
  if (options.store) {
    try {
      store = JSON.parse(readFile(options.store, 'store file'));
    } catch (error) {
      if (error instanceof RunRequestError) throw error;
      throw new RunRequestError(`store file ${options.store} is not valid JSON: ${(error as Error).message}`);
    }
  }
  return {
    code,
    entrypoint,
    args: commandLineArgs(pairs, params),
    env: {
      signer: options.signer,
      coinvalue: options.coinvalue,
      assets: assetAmounts(options.asset, 'asset'),
      balances: assetAmounts(options.balance, 'balance'),
      height: options.height,
      timestamp: options.timestamp,
      scid: options.scid,
      blid: options.blid,
      txid: options.txid,
      fee: options.fee,
    },
    store,
  };
}
