/**
 * The contract test file (`*.test.json`, docs/contracts.md § Testing your contract): contracts by name, then tests,
 * each a list of steps (an install or a call) with what to expect. Reading checks the shape and names the field at
 * fault; what the values mean (accounts, asset ids, argument types) is left to the runner.
 */
import { UmbraError } from '../core-native/ts/errors.js';
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
  balances?: Record<string, Scalar>;
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
  balances?: Record<string, Scalar>;
  transfers?: { to: string; amount: Scalar; asset?: string }[];
}

export interface Step {
  /** Set for an install (the initializer runs), else `call` is. */
  install?: string;
  call?: string;
  contract?: string;
  args: Record<string, Scalar>;
  signer?: string;
  coinvalue?: Scalar;
  assets: Record<string, Scalar>;
  height?: Scalar;
  timestamp?: Scalar;
  txid?: string;
  blid?: string;
  fee?: number;
  expect: Expectation;
}

export interface ContractTest {
  name: string;
  steps: Step[];
}

export interface TestFile {
  contracts: ContractDecl[];
  tests: ContractTest[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(value: unknown, at: string): Obj {
  if (!isObject(value)) throw new TestFileError(`${at} must be an object`);
  return value;
}

/** Refuses fields the format does not have, so a typo is not a silently skipped check. */
function only(value: Obj, fields: readonly string[], at: string): void {
  const unknown = Object.keys(value).filter((k) => !fields.includes(k));
  if (unknown.length > 0)
    throw new TestFileError(`${at} has unknown field ${unknown[0]} (known: ${fields.join(', ')})`);
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

function scalars<T>(value: unknown, at: string, check: (v: unknown) => v is T, what: string): Record<string, T> {
  if (value === undefined) return {};
  const o = object(value, at);
  for (const [k, v] of Object.entries(o)) if (!check(v)) throw new TestFileError(`${at}.${k} must be ${what}`);
  return o as Record<string, T>;
}

function readError(value: unknown, at: string): ErrorExpectation | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return { message: value };
  const o = object(value, at);
  only(o, ['message', 'line', 'function', 'phase'], at);
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

function readExpectation(value: unknown, at: string): Expectation {
  if (value === undefined) return {};
  const o = object(value, at);
  only(o, ['ok', 'committed', 'result', 'error', 'gas', 'store', 'balances', 'transfers'], at);
  const expectation: Expectation = {
    ok: optional(o.ok, `${at}.ok`, isBoolean, 'true or false'),
    committed: optional(o.committed, `${at}.committed`, isBoolean, 'true or false'),
    result: optional(o.result, `${at}.result`, isScalar, 'a number or a string'),
    error: readError(o.error, `${at}.error`),
  };
  if (o.gas !== undefined) {
    const gas = object(o.gas, `${at}.gas`);
    only(gas, ['compute', 'storage'], `${at}.gas`);
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
  if (o.balances !== undefined) expectation.balances = scalars(o.balances, `${at}.balances`, isScalar, 'an amount');
  if (o.transfers !== undefined) {
    if (!Array.isArray(o.transfers)) throw new TestFileError(`${at}.transfers must be an array`);
    expectation.transfers = o.transfers.map((t, i) => {
      const where = `${at}.transfers[${i}]`;
      const entry = object(t, where);
      only(entry, ['to', 'amount', 'asset'], where);
      const to = optional(entry.to, `${where}.to`, isString, 'an account or address');
      const amount = optional(entry.amount, `${where}.amount`, isScalar, 'an amount');
      if (to === undefined || amount === undefined) throw new TestFileError(`${where} needs to and amount`);
      return { to, amount, asset: optional(entry.asset, `${where}.asset`, isString, 'an asset') };
    });
  }
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

function readStep(value: unknown, at: string): Step {
  const o = object(value, at);
  only(o, STEP_FIELDS, at);
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
    coinvalue: optional(o.coinvalue, `${at}.coinvalue`, isScalar, 'an amount'),
    assets: scalars(o.assets, `${at}.assets`, isScalar, 'an amount'),
    height: optional(o.height, `${at}.height`, isScalar, 'an integer'),
    timestamp: optional(o.timestamp, `${at}.timestamp`, isScalar, 'milliseconds'),
    txid: optional(o.txid, `${at}.txid`, isString, '64 hex characters'),
    blid: optional(o.blid, `${at}.blid`, isString, '64 hex characters'),
    fee: optional(o.fee, `${at}.fee`, isInteger, 'an integer'),
    expect: readExpectation(o.expect, `${at}.expect`),
  };
}

function readContract(name: string, value: unknown, at: string): ContractDecl {
  if (typeof value === 'string') return { name, file: value };
  const o = object(value, at);
  only(o, ['file', 'scid', 'store', 'balances'], at);
  const file = optional(o.file, `${at}.file`, isString, 'a path');
  if (file === undefined) throw new TestFileError(`${at} needs file (the contract source)`);
  if (o.store !== undefined && !Array.isArray(o.store))
    throw new TestFileError(`${at}.store must be an array of {ktype, key, vtype, value}`);
  return {
    name,
    file,
    scid: optional(o.scid, `${at}.scid`, isString, '64 hex characters'),
    store: o.store as StoreEntry[] | undefined,
    balances: o.balances === undefined ? undefined : scalars(o.balances, `${at}.balances`, isScalar, 'an amount'),
  };
}

/** Reads a test file's text; throws TestFileError naming the field at fault. */
export function readTestFile(text: string): TestFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TestFileError(`not valid JSON: ${(error as Error).message}`);
  }
  const o = object(parsed, 'the file');
  only(o, ['contracts', 'tests'], 'the file');
  const contracts = Object.entries(object(o.contracts, 'contracts')).map(([name, decl]) =>
    readContract(name, decl, `contracts.${name}`),
  );
  if (contracts.length === 0) throw new TestFileError('contracts must name at least one contract');
  if (!Array.isArray(o.tests) || o.tests.length === 0) throw new TestFileError('tests must be a non-empty array');
  const tests = o.tests.map((value, i) => {
    const test = object(value, `tests[${i}]`);
    only(test, ['name', 'steps'], `tests[${i}]`);
    if (typeof test.name !== 'string' || test.name === '') throw new TestFileError(`tests[${i}].name must be a name`);
    if (!Array.isArray(test.steps) || test.steps.length === 0)
      throw new TestFileError(`tests[${i}] (${test.name}): steps must be a non-empty array`);
    return { name: test.name, steps: test.steps.map((s, j) => readStep(s, `tests[${i}].steps[${j}]`)) };
  });
  return { contracts, tests };
}
