/**
 * `umbra contract run`: runs one entry point of a contract file outside the chain, for contract developers and
 * tests (issue 5). Arguments are NAME=VALUE (typed from the function's parameters, or NAME:U=…, NAME:S=…,
 * NAME:H=…); the chain context comes from flags. `--json` reads a whole request from stdin instead and prints the
 * response object (contract-runner.ts). Exit status: 0 when the entry point ran, 2 when it failed (panic, error,
 * limit), 1 for bad input (unreadable file, malformed JSON, unknown entry point).
 */
import { readFileSync } from 'node:fs';
import { createContainer, InjectionMode } from 'awilix';
import { Command, Option } from 'commander';
import { loadCore } from '../../core-native/ts/index.js';
import { addressCodec } from '../protocol/address.js';
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../protocol/network.js';
import { importPlugin } from '../plugins/catalog.js';
import type { ContractVm } from '../services/contract-vm.js';
import { ContractCompileError } from '../services/contract-vm.js';
import { provideServices, type Services } from '../services/services.js';
import { RunRequestError, runContractRequest, type RunResponse } from './contract-runner.js';

export interface ContractCommandIo {
  write(text: string): void;
  readStdin(): Promise<string>;
  setExitCode(code: number): void;
}

const defaultIo: ContractCommandIo = {
  write: (text) => process.stdout.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  setExitCode: (code) => (process.exitCode = code),
};

interface RunOptions {
  json?: boolean;
  network: NetworkName;
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
}

async function contractVm(network: NetworkName): Promise<{ vm: ContractVm; run: (request: unknown) => RunResponse }> {
  const core = await loadCore();
  // Just the services the dvm plugin reads; it needs no config.
  const container = createContainer<Services>({ injectionMode: InjectionMode.PROXY });
  provideServices(container, { core, network: NETWORKS[network] });
  await (await importPlugin('dvm')).register(container, undefined as never);
  const vm = container.cradle.contractVm;
  const addresses = addressCodec(network, core);
  return { vm, run: (request) => runContractRequest(vm, addresses, core, request) };
}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
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

function describe(response: RunResponse): string {
  const lines: string[] = [];
  if (response.error) {
    // An install error's message already names the function and line.
    const where =
      response.error.phase === 'run' && response.error.function
        ? ` in ${response.error.function}${response.error.line !== null ? ` line ${response.error.line}` : ''}`
        : '';
    lines.push(
      `${response.error.phase === 'install' ? 'does not compile' : 'failed'}${where}: ${response.error.message}`,
    );
  } else {
    lines.push(
      `returned:  ${response.type === null ? '(no value)' : `${response.result}${response.encoding ? ' (hex)' : ''} (${response.type})`}`,
    );
  }
  lines.push(`committed: ${response.committed ? 'yes' : 'no, every change is discarded'}`);
  lines.push(`gas:       compute ${response.gas.compute}, storage ${response.gas.storage}`);
  for (const w of response.writes)
    lines.push(
      `write:     ${w.ktype} ${JSON.stringify(w.key)} ${w.deleted ? 'deleted' : `= ${w.vtype} ${JSON.stringify(w.value)}${w.encoding ? ' (hex)' : ''}`}`,
    );
  for (const t of response.transfers)
    lines.push(`transfer:  ${t.amount} of ${t.asset === '0'.repeat(64) ? 'coin' : `asset ${t.asset}`} to ${t.address}`);
  return `${lines.join('\n')}\n`;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function contractCommand(io: ContractCommandIo = defaultIo): Command {
  const contract = new Command('contract').description('tools for contract developers');
  contract
    .command('run')
    .description('run one entry point of a contract file against a local store (no chain needed)')
    .argument('[file]', 'the contract source (.bas)')
    .argument('[entrypoint]', 'the function to call, e.g. Initialize')
    .argument('[args...]', 'arguments NAME=VALUE (typed from the parameters) or NAME:U=…, NAME:S=…, NAME:H=…')
    .option('--json', 'read a request object from stdin and print the response object (see docs/contracts.md)')
    .addOption(new Option('--network <name>', 'network for addresses').choices(NETWORK_NAMES).default('simulator'))
    .option('--signer <address>', 'the caller (known signer, as with ring size 2); absent = anonymous')
    .option('--coinvalue <amount>', 'coin deposited with the call')
    .option('--asset <scid=amount>', 'an asset deposited with the call (repeatable)', collect, [])
    .option(
      '--balance <asset=amount>',
      "the contract's balance before the call; asset 'coin' or 64 hex (repeatable)",
      collect,
      [],
    )
    .option('--store <file>', 'JSON array of stored variables [{ktype, key, vtype, value}] to start from')
    .option('--height <n>', 'block height')
    .option('--timestamp <ms>', 'block timestamp in milliseconds')
    .option('--scid <hex>', 'the contract id (default: Keccak-256 of the code)')
    .option('--blid <hex>', 'the block id (default: zeros; RANDOM depends on it)')
    .option('--txid <hex>', 'the transaction id (default: zeros; RANDOM depends on it)')
    .option('--fee <amount>', 'transaction fee: the storage-gas limit is min(fee, 20000); 0 = unlimited')
    .action(async (file: string | undefined, entrypoint: string | undefined, pairs: string[], options: RunOptions) => {
      const { vm, run } = await contractVm(options.network);
      let request: unknown;
      if (options.json) {
        const text = await io.readStdin();
        try {
          request = JSON.parse(text);
        } catch (error) {
          throw new Error(`stdin is not valid JSON: ${(error as Error).message}`);
        }
      } else {
        if (!file || !entrypoint)
          throw new Error('give a contract file and an entry point (or --json with a request on stdin)');
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
        const pairsOf = (list: string[], what: string): Record<string, string> =>
          Object.fromEntries(
            list.map((item) => {
              const at = item.lastIndexOf('=');
              if (at < 1) throw new Error(`--${what} ${item}: expected ASSET=AMOUNT`);
              const asset = item.slice(0, at) === 'coin' ? '0'.repeat(64) : item.slice(0, at);
              return [asset, item.slice(at + 1)];
            }),
          );
        request = {
          code,
          entrypoint,
          args: commandLineArgs(pairs, params),
          env: {
            signer: options.signer,
            coinvalue: options.coinvalue,
            assets: pairsOf(options.asset, 'asset'),
            balances: pairsOf(options.balance, 'balance'),
            height: options.height,
            timestamp: options.timestamp,
            scid: options.scid,
            blid: options.blid,
            txid: options.txid,
            fee: options.fee,
          },
          store: options.store ? JSON.parse(readFile(options.store, 'store file')) : undefined,
        };
      }
      const response = run(request);
      if (options.json) io.write(`${JSON.stringify(response)}\n`);
      else {
        io.write(describe(response));
        if (response.error) io.setExitCode(2);
      }
    });
  return contract;
}
