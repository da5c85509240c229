/**
 * `umbra contract`, the contract developer's tools (docs/contracts.md).
 *
 * `run` runs one entry point of a contract file outside the chain. Arguments are NAME=VALUE (typed from the
 * function's parameters, or NAME:U=…, NAME:S=…, NAME:H=…); the chain context comes from flags (contract-request.ts),
 * or `--state FILE` carries it from run to run (contract-state-file.ts). `--json` prints the response object, and
 * without a file reads the whole request from stdin (contract-runner.ts); bad input is then a JSON answer too.
 * Exit status, with --json or without: 0 when the entry point ran, 2 when the contract failed (does not compile,
 * panic, error, limit), 1 for bad input (unreadable file, malformed JSON or amount, an unknown or private entry point,
 * an argument missing or unknown).
 *
 * `test` runs contract test files (contract-test-file.ts, contract-test-runner.ts); exit 1 on any failure.
 */
import { createContainer, InjectionMode } from 'awilix';
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { loadCore } from '../core-native/ts/index.js';
import type { Core } from '../core-native/ts/core.js';
import { addressCodec, type AddressCodec } from '../protocol/address.js';
import { AMOUNT_NOTATION, describeAmount } from '../protocol/coin-amount.js';
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../protocol/network.js';
import { importPlugin } from '../host/plugins/catalog.js';
import type { ContractVm } from '../host/services/contract-vm.js';
import { provideServices, type Services } from '../host/services/services.js';
import { commandLineRequest, parseRequest, type RunOptions } from './contract-request.js';
import { RunRequestError, runContractRequest, type RunResponse } from './contract-runner.js';
import { COIN_HEX } from './contract-session.js';
import { StateFile } from './contract-state-file.js';
import { gasReport, jsonReport, textReport } from './contract-test-report.js';
import { ContractTester, findTestFiles, type GasSample, type TestOutcome } from './contract-test-runner.js';

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

async function contractVm(network: NetworkName): Promise<{
  vm: ContractVm;
  core: Core;
  addresses: AddressCodec;
  run: (request: unknown) => RunResponse;
}> {
  const core = await loadCore();
  // Just the services the dvm plugin reads; it needs no config.
  const container = createContainer<Services>({ injectionMode: InjectionMode.PROXY });
  provideServices(container, { core, network: NETWORKS[network] });
  await (await importPlugin('dvm')).register(container, undefined as never);
  const vm = container.cradle.contractVm;
  const addresses = addressCodec(network, core);
  return { vm, core, addresses, run: (request) => runContractRequest(vm, addresses, core, request) };
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
  for (const t of response.transfers) {
    const coin = t.asset === COIN_HEX;
    const amount = describeAmount(BigInt(t.amount), coin ? 'coin' : 'token');
    lines.push(`transfer:  ${amount}${coin ? '' : ` of asset ${t.asset}`} to ${t.address}`);
  }
  return `${lines.join('\n')}\n`;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function contractCommand(io: ContractCommandIo = defaultIo): Command {
  const contract = new Command('contract').description(COMMAND_SUMMARIES.contract);
  contract
    .command('run')
    .description('run one entry point of a contract file against a local store (no chain needed)')
    .argument('[file]', 'the contract source (.bas)')
    .argument('[entrypoint]', 'the function to call, e.g. Initialize')
    .argument('[args...]', 'arguments NAME=VALUE (typed from the parameters) or NAME:U=…, NAME:S=…, NAME:H=…')
    .option(
      '--json',
      'print the response object (see docs/contracts.md); without FILE, read the request object from stdin',
    )
    .addOption(new Option('--network <name>', 'network for addresses').choices(NETWORK_NAMES).default('simulator'))
    .option('--signer <address>', 'the caller (known signer, as with ring size 2); absent = anonymous')
    .option('--coinvalue <amount>', `coin deposited with the call: ${AMOUNT_NOTATION}`)
    .option('--asset <scid=amount>', 'an asset deposited with the call, amount as for coins (repeatable)', collect, [])
    .option(
      '--balance <asset=amount>',
      "the contract's balance before the call; asset 'coin' or 64 hex, amount as for coins (repeatable)",
      collect,
      [],
    )
    .option('--store <file>', 'JSON array of stored variables [{ktype, key, vtype, value}] to start from')
    .option('--height <n>', 'block height')
    .option('--timestamp <ms>', 'block timestamp in milliseconds')
    .option('--scid <hex>', 'the contract id (default: Keccak-256 of the code)')
    .option('--blid <hex>', 'the block id (default: zeros; RANDOM depends on it)')
    .option('--txid <hex>', 'the transaction id (default: zeros; RANDOM depends on it)')
    .option(
      '--fee <amount>',
      'transaction fee, as for coins: the storage-gas limit is min(fee in atomic units, 20000); 0 = unlimited',
    )
    .option('--state <file>', 'keep the store, balances and block height in this file from run to run')
    .option('--reset', 'with --state: start from an empty store (the file is rewritten)')
    .action(async (file: string | undefined, entrypoint: string | undefined, pairs: string[], options: RunOptions) => {
      try {
        const { vm, run, core } = await contractVm(options.network as NetworkName);
        const state = options.state === undefined ? undefined : new StateFile(options.state, options.reset === true);
        const request =
          options.json && file === undefined
            ? parseRequest(await io.readStdin())
            : commandLineRequest(vm, file, entrypoint, pairs, options, state?.replacedCode);
        const scidOf = (code: string): string => Buffer.from(core.keccak256(Buffer.from(code, 'utf8'))).toString('hex');
        const response = state ? state.run({ run }, request, scidOf) : run(request);
        if (options.json) io.write(`${JSON.stringify(response)}\n`);
        else {
          io.write(describe(response));
          if (state) io.write(`state:     ${state.path}, block height ${state.blockHeight}\n`);
        }
        if (response.error) io.setExitCode(2);
      } catch (error) {
        if (!options.json || !(error instanceof RunRequestError)) throw error;
        // With --json every outcome is one JSON document on stdout, bad input included.
        io.write(`${JSON.stringify({ ok: false, error: { phase: 'request', message: error.message } })}\n`);
        io.setExitCode(1);
      }
    });
  contract
    .command('test')
    .description('run contract test files (*.test.json; see docs/contracts.md § Testing your contract)')
    .argument('[paths...]', 'test files, or directories searched for *.test.json', ['.'])
    .option('--match <text>', 'only the tests whose name contains this text')
    .option('--gas-report', 'a table of compute gas per contract and entry point: min, average, max')
    .option('--json', 'print one JSON document')
    .action(async (paths: string[], options: { match?: string; gasReport?: boolean; json?: boolean }) => {
      const { vm, run, core, addresses } = await contractVm('simulator');
      const tester = new ContractTester({ core, vm, addresses, runner: { run } });
      const files = findTestFiles(paths);
      if (files.length === 0) throw new Error(`no *.test.json files in ${paths.join(', ')}`);
      const match = options.match === undefined ? undefined : (name: string) => name.includes(options.match!);
      const outcomes: TestOutcome[] = [];
      const samples: GasSample[] = [];
      for (const file of files) {
        const result = tester.runFile(file, match);
        outcomes.push(...result.outcomes);
        samples.push(...result.samples);
      }
      const report = options.gasReport ? gasReport(samples) : undefined;
      io.write(options.json ? jsonReport(outcomes, report) : textReport(outcomes, report));
      if (outcomes.some((o) => !o.ok)) io.setExitCode(1);
    });
  return contract;
}
