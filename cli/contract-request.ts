/**
 * The request of `umbra contract run`, from the command line (FILE ENTRYPOINT NAME=VALUE… and flags) or from stdin
 * (`--json` without a file): the JSON request of contract-runner.ts. Amount flags are written as everywhere on the
 * command line (protocol/coin-amount.ts); the request carries them in atomic units. The arguments are checked against
 * the entry point's parameters: one missing or unknown is bad input, as a bad flag is.
 */
import { readFileSync } from 'node:fs';
import { AmountError, parseAmount } from '../protocol/coin-amount.js';
import { closestName } from '../host/rpc/closest-name.js';
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

type Params = ReadonlyMap<string, 'Uint64' | 'String'>;

/** An amount flag's value in atomic units, as decimal text. */
function amountFlag(text: string, flag: string): string {
  try {
    return parseAmount(text, flag).toString();
  } catch (error) {
    if (error instanceof AmountError) throw new RunRequestError(error.message);
    throw error;
  }
}

/**
 * Refuses arguments the entry point has no parameter for (each with the nearest one) and parameters left without an
 * argument, all in one message; the Uint64 parameter `value` is the coin deposit (--coinvalue), never an argument.
 */
function checkArguments(entrypoint: string, params: Params, names: readonly string[]): void {
  const isDeposit = (name: string): boolean => name === 'value' && params.get(name) === 'Uint64';
  if (names.some(isDeposit))
    throw new RunRequestError(`${entrypoint}'s value is the coin deposited with the call: give it with --coinvalue`);
  const problems = [
    ...names
      .filter((name) => !params.has(name))
      .map((name) => {
        const near = closestName(name, [...params.keys()]);
        return `unknown argument ${name}${near ? ` (did you mean ${near}?)` : ''}`;
      }),
    ...[...params]
      .filter(([name]) => !names.includes(name) && !isDeposit(name))
      .map(([name, type]) => `missing argument ${name} (${type}): give ${name}=VALUE`),
  ];
  if (problems.length > 0) {
    const listed = [...params].map(([name, type]) => `${name} (${type})`).join(', ') || 'none';
    throw new RunRequestError(`${problems.join('; ')}; the parameters of ${entrypoint}: ${listed}`);
  }
}

/** NAME=VALUE pairs into sc_rpc arguments, typed by the entry point's parameters unless NAME:T=VALUE says. */
function commandLineArgs(pairs: string[], params: Params): { name: string; datatype: string; value: string }[] {
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

/** ASSET=AMOUNT flags into {asset id: atomic units}; `coin` is the native coin. */
function assetAmounts(list: string[], flag: string): Record<string, string> {
  return Object.fromEntries(
    list.map((item) => {
      const at = item.lastIndexOf('=');
      if (at < 1) throw new RunRequestError(`--${flag} ${item}: expected ASSET=AMOUNT`);
      const named = item.slice(0, at);
      const asset = named === 'coin' ? '0'.repeat(64) : named;
      return [asset, amountFlag(item.slice(at + 1), `--${flag} ${named}`)];
    }),
  );
}

/** The request the command line asks for; `runningCode`, when given, runs instead of the file's (--state). */
export function commandLineRequest(
  vm: Pick<ContractVm, 'compile'>,
  file: string | undefined,
  entrypoint: string | undefined,
  pairs: string[],
  options: RunOptions,
  runningCode?: string,
): RunRequest {
  if (!file || !entrypoint)
    throw new RunRequestError('give a contract file and an entry point (or --json with a request on stdin)');
  const code = readFile(file, 'contract file');
  let params: Params | undefined;
  try {
    const fn = vm.compile(runningCode ?? code).functions.get(entrypoint);
    params = fn?.exported ? new Map(fn.params.map((p) => [p.name, p.type])) : undefined;
  } catch (error) {
    if (!(error instanceof ContractCompileError)) throw error;
  }
  const args = commandLineArgs(pairs, params ?? new Map());
  // Code that does not compile, or an entry point it lacks or keeps private, is the runner's to report.
  if (params)
    checkArguments(
      entrypoint,
      params,
      args.map((a) => a.name),
    );
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
    args,
    env: {
      signer: options.signer,
      coinvalue: options.coinvalue === undefined ? undefined : amountFlag(options.coinvalue, '--coinvalue'),
      assets: assetAmounts(options.asset, 'asset'),
      balances: assetAmounts(options.balance, 'balance'),
      height: options.height,
      timestamp: options.timestamp,
      scid: options.scid,
      blid: options.blid,
      txid: options.txid,
      fee: options.fee === undefined ? undefined : amountFlag(options.fee, '--fee'),
    },
    store,
  };
}
