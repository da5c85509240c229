/**
 * The contract test file (`*.test.json`, docs/contracts.md § Testing your contract): contracts by name, then tests,
 * each a list of steps (an install or a call) with what to expect. Reading checks the shape and names the field at
 * fault; what the values mean (accounts, asset ids, argument types) is left to the runner. A test whose steps have
 * unknown keys or bad values is read as the list of its problems — every unknown key with the nearest known one — so
 * that one typo fails its test, not the file; problems outside the tests fail the file.
 */
import { UmbraError } from '../core-native/ts/errors.js';
import { AmountError, AMOUNT_NOTATION, parseAmount } from '../protocol/coin-amount.js';
import { closestName } from '../host/rpc/closest-name.js';
import type { StoreEntry } from './contract-runner.js';

export const ContractTestErrorCode = {
  /** A test file of the wrong shape; the message names the field. */
  BadFile: 'contract-test.bad-file',
  /** A step's outcome differs from what the test expects (the test fails with the message). */
  Difference: 'contract-test.difference',
} as const;
export type ContractTestErrorCode = (typeof ContractTestErrorCode)[keyof typeof ContractTestErrorCode];

export class TestFileError extends UmbraError<ContractTestErrorCode> {
  override readonly name = 'TestFileError';
  constructor(message: string) {
    super(ContractTestErrorCode.BadFile, message);
  }
}

export type Scalar = string | number;

export interface ContractDecl {
  name: string;
  /** The source file, relative to the test file. */
  file: string;
  scid?: string;
  store?: StoreEntry[];
  /** Asset → atomic units. */
  balances?: Record<string, bigint>;
}

export interface ErrorExpectation {
  message?: string;
  line?: number | null;
  function?: string;
  phase?: 'install' | 'run';
}

export interface Expectation {
  ok?: boolean;
  committed?: boolean;
  result?: Scalar;
  /** null: no error; a string: a part of the message. */
  error?: ErrorExpectation | null;
  gas?: { compute?: number; storage?: number };
  /** Stored variables after the step; null: absent. A key "U:n" is the Uint64 key n. */
  store?: Record<string, Scalar | null>;
  /** Asset → atomic units. */
  balances?: Record<string, bigint>;
  transfers?: { to: string; amount: bigint; asset?: string }[];
}

export interface Step {
  /** Set for an install (the initializer runs), else `call` is. */
  install?: string;
  call?: string;
  contract?: string;
  args: Record<string, Scalar>;
  signer?: string;
  /** Atomic units, as every amount here. */
  coinvalue?: bigint;
  assets: Record<string, bigint>;
  height?: Scalar;
  timestamp?: Scalar;
  txid?: string;
  blid?: string;
  fee?: bigint;
  expect: Expectation;
}

export interface ContractTest {
  name: string;
  steps: Step[];
}

/** A test that cannot run: what is wrong with it, every unknown key and each step's first bad value. */
export interface UnreadableTest {
  name: string;
  problems: string[];
}

export interface TestFile {
  contracts: ContractDecl[];
  tests: (ContractTest | UnreadableTest)[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(value: unknown, at: string): Obj {
  if (!isObject(value)) throw new TestFileError(`${at} must be an object`);
  return value;
}

/**
 * Keys the format does not have, in one part of a file: each is a problem (a typo must not be a silently skipped
 * check), noted with the known key nearest to it while the reading goes on.
 */
class UnknownKeys {
  readonly problems: string[] = [];

  check(value: Obj, fields: readonly string[], at: string): void {
    for (const key of Object.keys(value)) {
      if (fields.includes(key)) continue;
      const near = closestName(key, fields);
      this.problems.push(
        `${at} has unknown key ${JSON.stringify(key)} (${near ? `did you mean ${JSON.stringify(near)}?` : `known: ${fields.join(', ')}`})`,
      );
    }
  }
}

/** Runs each read, carrying on past a bad value; returns what was read and every problem, unknown keys first. */
function readEach<T>(reads: readonly (() => T)[]): { read: T[]; problems: string[] } {
  const read: T[] = [];
  const problems: string[] = [];
  for (const run of reads) {
    try {
      read.push(run());
    } catch (error) {
      if (!(error instanceof TestFileError)) throw error;
      problems.push(error.message);
    }
  }
  return { read, problems };
}

function optional<T>(value: unknown, at: string, check: (v: unknown) => v is T, what: string): T | undefined {
  if (value === undefined) return undefined;
  if (!check(value)) throw new TestFileError(`${at} must be ${what}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
const isInteger = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/**
 * An amount, written as on the command line: text ("1.5" coins, "150000u" atomic units) or a JSON number of coins
 * (1.5). A number with more than 15 significant digits is refused: JSON readers round it.
 */
function readAmount(value: unknown, at: string): bigint {
  if (typeof value === 'number' && Number(value.toPrecision(15)) !== value)
    throw new TestFileError(`${at} has too many digits for a JSON number: write it as text, e.g. "1.5" or "150000u"`);
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') throw new TestFileError(`${at} must be an amount: ${AMOUNT_NOTATION}`);
  try {
    return parseAmount(text, at);
  } catch (error) {
    if (error instanceof AmountError) throw new TestFileError(error.message);
    throw error;
  }
}

const optionalAmount = (value: unknown, at: string): bigint | undefined =>
  value === undefined ? undefined : readAmount(value, at);

function scalars<T>(value: unknown, at: string, check: (v: unknown) => v is T, what: string): Record<string, T> {
  if (value === undefined) return {};
  const o = object(value, at);
  for (const [k, v] of Object.entries(o)) if (!check(v)) throw new TestFileError(`${at}.${k} must be ${what}`);
  return o as Record<string, T>;
}

/** `{asset: amount}`, the amounts in atomic units. */
function amounts(value: unknown, at: string): Record<string, bigint> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(object(value, at)).map(([k, v]) => [k, readAmount(v, `${at}.${k}`)]));
}

function readError(value: unknown, at: string, keys: UnknownKeys): ErrorExpectation | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return { message: value };
  const o = object(value, at);
  keys.check(o, ['message', 'line', 'function', 'phase'], at);
  if (o.line !== undefined && o.line !== null && !isInteger(o.line))
    throw new TestFileError(`${at}.line must be a line number or null`);
  if (o.phase !== undefined && o.phase !== 'install' && o.phase !== 'run')
    throw new TestFileError(`${at}.phase must be "install" or "run"`);
  return {
    message: optional(o.message, `${at}.message`, isString, 'a string'),
    line: o.line as number | null | undefined,
    function: optional(o.function, `${at}.function`, isString, 'a string'),
    phase: o.phase as ErrorExpectation['phase'],
  };
}

function readTransfers(value: unknown, at: string, keys: UnknownKeys): Expectation['transfers'] {
  if (!Array.isArray(value)) throw new TestFileError(`${at} must be an array`);
  return value.map((t, i) => {
    const where = `${at}[${i}]`;
    const entry = object(t, where);
    keys.check(entry, ['to', 'amount', 'asset'], where);
    const to = optional(entry.to, `${where}.to`, isString, 'an account or address');
    const amount = optionalAmount(entry.amount, `${where}.amount`);
    if (to === undefined || amount === undefined) throw new TestFileError(`${where} needs to and amount`);
    return { to, amount, asset: optional(entry.asset, `${where}.asset`, isString, 'an asset') };
  });
}

function readExpectation(value: unknown, at: string, keys: UnknownKeys): Expectation {
  if (value === undefined) return {};
  const o = object(value, at);
  keys.check(o, ['ok', 'committed', 'result', 'error', 'gas', 'store', 'balances', 'transfers'], at);
  const expectation: Expectation = {
    ok: optional(o.ok, `${at}.ok`, isBoolean, 'true or false'),
    committed: optional(o.committed, `${at}.committed`, isBoolean, 'true or false'),
    result: optional(o.result, `${at}.result`, isScalar, 'a number or a string'),
    error: readError(o.error, `${at}.error`, keys),
  };
  if (o.gas !== undefined) {
    const gas = object(o.gas, `${at}.gas`);
    keys.check(gas, ['compute', 'storage'], `${at}.gas`);
    expectation.gas = {
      compute: optional(gas.compute, `${at}.gas.compute`, isInteger, 'an integer'),
      storage: optional(gas.storage, `${at}.gas.storage`, isInteger, 'an integer'),
    };
  }
  if (o.store !== undefined)
    expectation.store = scalars(
      o.store,
      `${at}.store`,
      (v): v is Scalar | null => v === null || isScalar(v),
      'a value or null',
    );
  if (o.balances !== undefined) expectation.balances = amounts(o.balances, `${at}.balances`);
  if (o.transfers !== undefined) expectation.transfers = readTransfers(o.transfers, `${at}.transfers`, keys);
  return expectation;
}

const STEP_FIELDS = [
  'install',
  'call',
  'contract',
  'args',
  'signer',
  'coinvalue',
  'assets',
  'height',
  'timestamp',
  'txid',
  'blid',
  'fee',
  'expect',
] as const;

function readStep(value: unknown, at: string, keys: UnknownKeys): Step {
  const o = object(value, at);
  keys.check(o, STEP_FIELDS, at);
  const install = optional(o.install, `${at}.install`, isString, 'a contract name');
  const call = optional(o.call, `${at}.call`, isString, 'an entry point');
  if ((install === undefined) === (call === undefined))
    throw new TestFileError(`${at} needs either install (a contract name) or call (an entry point)`);
  return {
    install,
    call,
    contract: optional(o.contract, `${at}.contract`, isString, 'a contract name'),
    args: scalars(o.args, `${at}.args`, isScalar, 'a number or a string'),
    signer: optional(o.signer, `${at}.signer`, isString, 'an account (@name) or an address'),
    coinvalue: optionalAmount(o.coinvalue, `${at}.coinvalue`),
    assets: amounts(o.assets, `${at}.assets`),
    height: optional(o.height, `${at}.height`, isScalar, 'an integer'),
    timestamp: optional(o.timestamp, `${at}.timestamp`, isScalar, 'milliseconds'),
    txid: optional(o.txid, `${at}.txid`, isString, '64 hex characters'),
    blid: optional(o.blid, `${at}.blid`, isString, '64 hex characters'),
    fee: optionalAmount(o.fee, `${at}.fee`),
    expect: readExpectation(o.expect, `${at}.expect`, keys),
  };
}

/** One test: its steps, or every problem they have. */
function readTest(value: unknown, index: number): ContractTest | UnreadableTest {
  const at = `tests[${index}]`;
  const named = isObject(value) && typeof value.name === 'string' && value.name !== '' ? value.name : undefined;
  const name = named ?? at;
  if (!isObject(value)) return { name, problems: [`${at} must be an object`] };
  const keys = new UnknownKeys();
  keys.check(value, ['name', 'steps'], at);
  const problems = named === undefined ? [`${at}.name must be a name`] : [];
  if (!Array.isArray(value.steps) || value.steps.length === 0) problems.push(`${at}: steps must be a non-empty array`);
  const steps = readEach(
    (Array.isArray(value.steps) ? value.steps : []).map((s, j) => () => readStep(s, `${at}.steps[${j}]`, keys)),
  );
  problems.push(...steps.problems);
  return keys.problems.length + problems.length === 0
    ? { name, steps: steps.read }
    : { name, problems: [...keys.problems, ...problems] };
}

function readContract(name: string, value: unknown, at: string, keys: UnknownKeys): ContractDecl {
  if (typeof value === 'string') return { name, file: value };
  const o = object(value, at);
  keys.check(o, ['file', 'scid', 'store', 'balances'], at);
  const file = optional(o.file, `${at}.file`, isString, 'a path');
  if (file === undefined) throw new TestFileError(`${at} needs file (the contract source)`);
  if (o.store !== undefined && !Array.isArray(o.store))
    throw new TestFileError(`${at}.store must be an array of {ktype, key, vtype, value}`);
  return {
    name,
    file,
    scid: optional(o.scid, `${at}.scid`, isString, '64 hex characters'),
    store: o.store as StoreEntry[] | undefined,
    balances: o.balances === undefined ? undefined : amounts(o.balances, `${at}.balances`),
  };
}

/**
 * Reads a test file's text. What is wrong outside the tests (the JSON, the contracts) throws one TestFileError
 * listing every problem, a line each; a test with problems is read as an UnreadableTest.
 */
export function readTestFile(text: string): TestFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TestFileError(`not valid JSON: ${(error as Error).message}`);
  }
  const o = object(parsed, 'the file');
  const keys = new UnknownKeys();
  keys.check(o, ['contracts', 'tests'], 'the file');
  const contracts = readEach(
    Object.entries(object(o.contracts, 'contracts')).map(
      ([name, decl]) =>
        () =>
          readContract(name, decl, `contracts.${name}`, keys),
    ),
  );
  const problems = [...keys.problems, ...contracts.problems];
  if (contracts.read.length + contracts.problems.length === 0)
    problems.push('contracts must name at least one contract');
  if (!Array.isArray(o.tests) || o.tests.length === 0) problems.push('tests must be a non-empty array');
  if (problems.length > 0) throw new TestFileError(problems.join('\n'));
  return { contracts: contracts.read, tests: (o.tests as unknown[]).map(readTest) };
}
