/**
 * Runs contract test files (contract-test-file.ts): each test starts from fresh contracts, plays its steps through
 * ContractSessions and stops at the first difference from what a step expects. Named accounts (`@alice`) have keys
 * derived from their names, so a test file needs no key material: Keccak-256("UMBRA test account <name>") mod n.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { bigintFromBytesBE, bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import type { Core } from '../core-native/ts/core.js';
import { UmbraError } from '../core-native/ts/errors.js';
import { mod } from '../core-native/ts/proof/field.js';
import type { AddressCodec } from '../protocol/address.js';
import { describeAmount } from '../protocol/coin-amount.js';
import { publicKeyOf } from '../protocol/keys.js';
import { NETWORKS } from '../protocol/network.js';
import type { ContractVm } from '../host/services/contract-vm.js';
import { ContractCompileError } from '../host/services/contract-vm.js';
import type { RunResponse } from './contract-runner.js';
import { COIN_HEX, ContractSession, type CallOptions, type ContractRunner } from './contract-session.js';
import {
  ContractTestErrorCode,
  readTestFile,
  type ContractDecl,
  type ContractTest,
  type Expectation,
  type Scalar,
  type Step,
  type UnreadableTest,
} from './contract-test-file.js';

export interface TestEnvironment {
  core: Core;
  vm: Pick<ContractVm, 'compile'>;
  runner: ContractRunner;
  addresses: AddressCodec;
}

export interface TestOutcome {
  file: string;
  name: string;
  ok: boolean;
  /** Compute gas of every call the test made. */
  gas: number;
  /** The first difference, for a failed test; a test that cannot be read has every problem, a line each. */
  failure?: string;
}

/** One call's compute gas, for the gas report. */
export interface GasSample {
  contract: string;
  entrypoint: string;
  compute: number;
}

export interface TestRun {
  outcomes: TestOutcome[];
  samples: GasSample[];
}

/** A failed expectation: the test stops with its message. */
class Difference extends UmbraError<ContractTestErrorCode> {
  constructor(message: string) {
    super(ContractTestErrorCode.Difference, message);
  }
}

/** An amount of `asset` (64 hex) for people: coins with the unit, or a token's units. */
const amountOf = (atomic: bigint, asset: string): string =>
  describeAmount(atomic, asset === COIN_HEX ? 'coin' : 'token');

/** Every `*.test.json` under the given files and directories (dot directories and node_modules skipped), sorted. */
export function findTestFiles(paths: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (path: string, named: boolean): void => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new Error(`cannot read ${path}: no such file or directory`);
    }
    if (stat.isFile()) {
      if (named || path.endsWith('.test.json')) found.push(path);
      return;
    }
    for (const entry of readdirSync(path).sort())
      if (!entry.startsWith('.') && entry !== 'node_modules') walk(join(path, entry), false);
  };
  for (const path of paths) walk(path, true);
  return found;
}

interface Account {
  address: string;
  rawHex: string;
}

export class ContractTester {
  private readonly accounts = new Map<string, Account>();

  constructor(private readonly env: TestEnvironment) {}

  /** The named test account `name`. */
  account(name: string): Account {
    let account = this.accounts.get(name);
    if (!account) {
      const { core, addresses } = this.env;
      const secret = bigintToBytes32BE(
        mod(bigintFromBytesBE(core.keccak256(new TextEncoder().encode(`UMBRA test account ${name}`)))),
      );
      const key = publicKeyOf(core, secret, NETWORKS[addresses.network].generatorDomain);
      account = { address: addresses.fromRaw(key), rawHex: Buffer.from(key).toString('hex') };
      this.accounts.set(name, account);
    }
    return account;
  }

  /** Runs one file's tests (those `match` accepts); a file that cannot be read is one failed outcome. */
  runFile(path: string, match: (name: string) => boolean = () => true): TestRun {
    const run: TestRun = { outcomes: [], samples: [] };
    let tests: (ContractTest | UnreadableTest)[];
    let sources: Map<string, { decl: ContractDecl; code: string; scid: string }>;
    try {
      const file = readTestFile(readFileSync(path, 'utf8'));
      tests = file.tests.filter((t) => match(t.name));
      sources = new Map(
        file.contracts.map((decl) => {
          const source = resolve(dirname(path), decl.file);
          let code: string;
          try {
            code = readFileSync(source, 'utf8');
          } catch (error) {
            throw new Error(`contract ${decl.name}: cannot read ${source} (${(error as NodeJS.ErrnoException).code})`);
          }
          const scid = (
            decl.scid ?? Buffer.from(this.env.core.keccak256(Buffer.from(code))).toString('hex')
          ).toLowerCase();
          if (!/^[0-9a-f]{64}$/.test(scid)) throw new Error(`contract ${decl.name}: scid must be 64 hex characters`);
          return [decl.name, { decl, code, scid }];
        }),
      );
    } catch (error) {
      run.outcomes.push({ file: path, name: '(the file)', ok: false, gas: 0, failure: (error as Error).message });
      return run;
    }
    for (const test of tests)
      run.outcomes.push(
        'problems' in test
          ? { file: path, name: test.name, ok: false, gas: 0, failure: test.problems.join('\n') }
          : this.runTest(path, test, sources, run.samples),
      );
    return run;
  }

  private runTest(
    file: string,
    test: ContractTest,
    sources: Map<string, { decl: ContractDecl; code: string; scid: string }>,
    samples: GasSample[],
  ): TestOutcome {
    const scids = new Map([...sources].map(([name, s]) => [name, s.scid]));
    const sessions = new Map<string, ContractSession>();
    let gas = 0;
    let height = 0n;
    let timestamp = 0n;
    for (const [i, step] of test.steps.entries()) {
      const name = step.install ?? step.contract ?? sources.keys().next().value!;
      const label = `step ${i + 1} (${name}.${step.install ? 'install' : step.call})`;
      try {
        const source = sources.get(name);
        if (!source) throw new Difference(`no contract named ${name} (contracts: ${[...sources.keys()].join(', ')})`);
        let session = sessions.get(name);
        if (!session) {
          session = new ContractSession(this.env.runner, source.code, source.scid);
          session.restore({
            scid: source.scid,
            // `@name` in a String value stands for the account's raw key, as in expectations.
            store: (source.decl.store ?? []).map((entry) =>
              typeof entry.value === 'string' && entry.value.startsWith('@')
                ? { ...entry, value: this.account(entry.value.slice(1)).rawHex, encoding: 'hex' as const }
                : entry,
            ),
            balances: Object.fromEntries(
              Object.entries(source.decl.balances ?? {}).map(([a, v]) => [this.asset(a, scids), String(v)]),
            ),
          });
          sessions.set(name, session);
        }
        height = step.height === undefined ? height + 1n : BigInt(step.height);
        if (step.timestamp !== undefined) timestamp = BigInt(step.timestamp);
        const entrypoint = this.entrypoint(step, session);
        const response = session.call(
          entrypoint,
          this.callOptions(step, session, entrypoint, scids, height, timestamp),
        );
        gas += response.gas.compute;
        samples.push({ contract: basename(source.decl.file), entrypoint, compute: response.gas.compute });
        this.check(step.expect, response, session, scids);
      } catch (error) {
        return { file, name: test.name, ok: false, gas, failure: `${label}: ${(error as Error).message}` };
      }
    }
    return { file, name: test.name, ok: true, gas };
  }

  private entrypoint(step: Step, session: ContractSession): string {
    if (step.call !== undefined) return step.call;
    let initializer: string | undefined;
    try {
      initializer = this.env.vm.compile(session.code).initializer;
    } catch (error) {
      if (!(error instanceof ContractCompileError)) throw error;
      return 'Initialize'; // the runner reports the compile error as the call's outcome
    }
    if (!initializer) throw new Difference('the contract has no Initialize or InitializePrivate function');
    return initializer;
  }

  /** `@name` (a test account), an address, or absent. */
  private address(ref: string): string {
    return ref.startsWith('@') ? this.account(ref.slice(1)).address : ref;
  }

  /** `coin`, `#contract` (its SCID) or 64 hex, as 64 lower-case hex. */
  private asset(ref: string, scids: Map<string, string>): string {
    if (ref === 'coin') return COIN_HEX;
    if (ref.startsWith('#')) {
      const scid = scids.get(ref.slice(1));
      if (!scid) throw new Difference(`${ref}: no contract named ${ref.slice(1)}`);
      return scid;
    }
    if (!/^[0-9a-fA-F]{64}$/.test(ref)) throw new Difference(`asset ${ref} must be coin, #contract or 64 hex`);
    return ref.toLowerCase();
  }

  private callOptions(
    step: Step,
    session: ContractSession,
    entrypoint: string,
    scids: Map<string, string>,
    height: bigint,
    timestamp: bigint,
  ): CallOptions {
    let params = new Map<string, string>();
    try {
      params = new Map(
        this.env.vm
          .compile(session.code)
          .functions.get(entrypoint)
          ?.params.map((p) => [p.name, p.type]),
      );
    } catch (error) {
      if (!(error instanceof ContractCompileError)) throw error;
    }
    const args = Object.entries(step.args).map(([key, value]) => {
      const [name = key, explicit] = key.split(':');
      if (explicit !== undefined && !['S', 'U', 'H'].includes(explicit))
        throw new Difference(`argument ${key}: the type after ':' must be S, U or H`);
      const datatype = (explicit ?? (params.get(name) === 'Uint64' ? 'U' : 'S')) as 'S' | 'U' | 'H';
      const text = String(value);
      const resolved = datatype === 'H' ? this.asset(text, scids) : text.startsWith('@') ? this.address(text) : value;
      return { name, datatype, value: resolved };
    });
    return {
      signer: step.signer === undefined ? undefined : this.address(step.signer),
      coinvalue: step.coinvalue,
      assets: Object.fromEntries(Object.entries(step.assets).map(([a, v]) => [this.asset(a, scids), v])),
      args,
      height,
      timestamp,
      txid: step.txid,
      blid: step.blid,
      fee: step.fee,
    };
  }

  /** A value as expected in the store: `@name` is the account's raw key (hex), `#name` a contract's SCID (hex). */
  private storedValue(value: Scalar, scids: Map<string, string>): string {
    if (typeof value !== 'string') return String(value);
    if (value.startsWith('@')) return this.account(value.slice(1)).rawHex;
    if (value.startsWith('#')) return this.asset(value, scids);
    return value;
  }

  /** Shows an address by its test-account name when it is one. */
  private named(address: string): string {
    for (const [name, account] of this.accounts) if (account.address === address) return `@${name}`;
    return address;
  }

  private check(expect: Expectation, r: RunResponse, session: ContractSession, scids: Map<string, string>): void {
    const shown = (v: unknown): string => JSON.stringify(v);
    const outcome = r.error
      ? `it failed${r.error.function ? ` in ${r.error.function}` : ''}${r.error.line !== null ? ` line ${r.error.line}` : ''}: ${r.error.message}`
      : `it returned ${r.result === '' ? '(no value)' : r.result}${r.committed ? '' : ' (not committed)'}`;
    if (expect.error === undefined || expect.error === null) {
      if (r.error) throw new Difference(`expected no failure, but ${outcome}`);
    } else {
      const e = expect.error;
      if (!r.error) throw new Difference(`expected a failure${e.message ? ` (${e.message})` : ''}, but ${outcome}`);
      if (e.message !== undefined && !r.error.message.includes(e.message))
        throw new Difference(
          `error message: expected it to contain ${shown(e.message)}, got ${shown(r.error.message)}`,
        );
      if (e.line !== undefined && e.line !== r.error.line)
        throw new Difference(`error line: expected ${e.line}, got ${r.error.line} (${r.error.message})`);
      if (e.function !== undefined && e.function !== r.error.function)
        throw new Difference(`error function: expected ${e.function}, got ${r.error.function}`);
      if (e.phase !== undefined && e.phase !== r.error.phase)
        throw new Difference(`error phase: expected ${e.phase}, got ${r.error.phase}`);
    }
    if (expect.ok !== undefined && expect.ok !== r.ok)
      throw new Difference(`ok: expected ${expect.ok}, but ${outcome}`);
    const committed =
      expect.committed ??
      (expect.ok === undefined && expect.result === undefined && expect.error === undefined ? true : undefined);
    if (committed !== undefined && committed !== r.committed)
      throw new Difference(`expected the call ${committed ? 'to commit' : 'not to commit'}, but ${outcome}`);
    if (expect.result !== undefined && String(expect.result) !== r.result)
      throw new Difference(`result: expected ${expect.result}, got ${r.result === '' ? '(no value)' : r.result}`);
    for (const kind of ['compute', 'storage'] as const) {
      const want = expect.gas?.[kind];
      if (want !== undefined && want !== r.gas[kind])
        throw new Difference(`${kind} gas: expected ${want}, got ${r.gas[kind]}`);
    }
    if (expect.transfers) {
      const describe = (t: { to: string; amount: bigint; asset: string }): string =>
        `${amountOf(t.amount, t.asset)}${t.asset === COIN_HEX ? '' : ` of ${t.asset}`} to ${this.named(t.to)}`;
      const want = expect.transfers.map((t) =>
        describe({ to: this.address(t.to), amount: t.amount, asset: this.asset(t.asset ?? 'coin', scids) }),
      );
      const got = r.transfers.map((t) => describe({ to: t.address, amount: BigInt(t.amount), asset: t.asset }));
      if (shown(want) !== shown(got))
        throw new Difference(
          `payments: expected ${want.length ? want.join('; ') : 'none'}, got ${got.length ? got.join('; ') : 'none'}`,
        );
    }
    for (const [key, value] of Object.entries(expect.store ?? {})) {
      const id = /^U:[0-9]+$/.test(key) ? key : `S:${key}`;
      const stored = session.store.get(id);
      const got = stored === undefined ? null : String(stored.value);
      const want = value === null ? null : this.storedValue(value, scids);
      if (want !== got)
        throw new Difference(`store ${shown(key)}: expected ${want ?? '(absent)'}, got ${got ?? '(absent)'}`);
    }
    for (const [asset, amount] of Object.entries(expect.balances ?? {})) {
      const id = this.asset(asset, scids);
      const got = session.balance(id);
      if (amount !== got)
        throw new Difference(`balance of ${asset}: expected ${amountOf(amount, id)}, got ${amountOf(got, id)}`);
    }
  }
}
