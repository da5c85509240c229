/**
 * `umbra contract run` in JSON form: one request object in, one response object out (issue 5 defines both).
 * The call runs against a store given in the request instead of the chain, with the same VM, limits and gas.
 *
 * Strings in the JSON are UTF-8 text; a key or value whose bytes are not valid UTF-8 (a raw key from SIGNER(),
 * a hash; also text with control characters) is written as hex with `"encoding": "hex"` beside it, and is read back the same way.
 */
import { UmbraError } from '../core-native/ts/errors.js';
import { isWholeBytesHex } from '../protocol/bytes.js';
import { compileFailureText, entryPointRefusal } from '../protocol/contract-call-rules.js';
import { byteString, byteStringUtf8, utf8ByteString } from '../protocol/contract-values.js';
import type { AddressCodec } from '../protocol/address.js';
import { encodeRpcArguments, parseRpcArguments, type RpcArgument } from '../protocol/rpc-arguments.js';
import { ContractCompileError, type CallContext, type ContractVm } from '../host/services/contract-vm.js';
import type { DvmValue } from '../protocol/contract-values.js';

export const ContractRunErrorCode = {
  /** A request, store or state file that is not what `umbra contract run` takes; the message names the field. */
  BadRequest: 'contract-run.bad-request',
} as const;
export type ContractRunErrorCode = (typeof ContractRunErrorCode)[keyof typeof ContractRunErrorCode];

export class RunRequestError extends UmbraError<ContractRunErrorCode> {
  override readonly name = 'RunRequestError';
  constructor(message: string) {
    super(ContractRunErrorCode.BadRequest, message);
  }
}

export interface StoreEntry {
  ktype: 'S' | 'U';
  key: string | number;
  vtype?: 'S' | 'U';
  value?: string | number;
  kencoding?: 'hex';
  encoding?: 'hex';
  deleted?: true;
}

export interface RunResponse {
  ok: boolean;
  committed: boolean;
  type: 'Uint64' | 'String' | null;
  result: string;
  /** Present when a String result is not UTF-8 text and `result` is its hex. */
  encoding?: 'hex';
  error: { phase: 'install' | 'run'; message: string; function?: string; line: number | null } | null;
  gas: { compute: number; storage: number };
  writes: StoreEntry[];
  transfers: { asset: string; address: string; amount: number | string }[];
  /** The new code set by UPDATE_SC_CODE in a committed call, else null. */
  code: string | null;
}

const ZERO = '\0'.repeat(32);
const MAX_U64 = (1n << 64n) - 1n;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hash32(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{64}$/.test(value))
    throw new RunRequestError(`${field} must be 64 hex characters`);
  return Buffer.from(value, 'hex').toString('latin1');
}

function uint(value: unknown, field: string): bigint {
  const ok =
    (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
    (typeof value === 'string' && /^[0-9]+$/.test(value));
  const v = ok ? BigInt(value as number | string) : -1n;
  if (v < 0n || v > MAX_U64)
    throw new RunRequestError(`${field} must be an integer from 0 to 2^64 − 1 (a decimal string for large values)`);
  return v;
}

/** A JSON number when exact, else a decimal string. */
const jsonUint = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());

function readValue(type: unknown, value: unknown, encoding: unknown, field: string): DvmValue {
  if (type === 'U') return uint(value, field);
  if (type !== 'S') throw new RunRequestError(`${field}: type must be "S" or "U"`);
  if (typeof value !== 'string') throw new RunRequestError(`${field} must be a string`);
  if (encoding === 'hex') {
    if (!isWholeBytesHex(value)) throw new RunRequestError(`${field} is marked hex but is not hex`);
    return Buffer.from(value, 'hex').toString('latin1');
  }
  if (encoding !== undefined) throw new RunRequestError(`${field}: encoding must be "hex" or absent`);
  return utf8ByteString(value);
}

/** A value for JSON: a number, UTF-8 text, or hex when the bytes are not text. */
function writeValue(value: DvmValue): { type: 'S' | 'U'; value: string | number; hex: boolean } {
  if (typeof value === 'bigint') return { type: 'U', value: jsonUint(value), hex: false };
  const text = byteStringUtf8(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters on purpose (shown as hex)
  return text === undefined || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)
    ? { type: 'S', value: Buffer.from(value, 'latin1').toString('hex'), hex: true }
    : { type: 'S', value: text, hex: false };
}

function readStore(input: unknown): Map<string, { key: DvmValue; value: DvmValue }> {
  const store = new Map<string, { key: DvmValue; value: DvmValue }>();
  if (input === undefined) return store;
  if (!Array.isArray(input)) throw new RunRequestError('store must be an array of {ktype, key, vtype, value}');
  input.forEach((entry, i) => {
    if (!isObject(entry)) throw new RunRequestError(`store[${i}] must be an object {ktype, key, vtype, value}`);
    const key = readValue(entry.ktype, entry.key, entry.kencoding, `store[${i}].key`);
    const value = readValue(entry.vtype, entry.value, entry.encoding, `store[${i}].value`);
    store.set(typeof key === 'bigint' ? `U${key}` : `S${key}`, { key, value });
  });
  return store;
}

function readContext(
  env: unknown,
  code: string,
  addresses: AddressCodec,
  args: readonly RpcArgument[],
  core: { keccak256(d: Uint8Array): Uint8Array },
): { context: CallContext; balances: Map<string, bigint> } {
  if (env !== undefined && !isObject(env)) throw new RunRequestError('env must be an object');
  const e = (env ?? {}) as Record<string, unknown>;
  const scid =
    e.scid === undefined ? byteString(core.keccak256(Buffer.from(code, 'utf8'))) : hash32(e.scid, 'env.scid');
  let signer: string | undefined;
  if (e.signer !== undefined && e.signer !== null && e.signer !== '') {
    if (typeof e.signer !== 'string') throw new RunRequestError('env.signer must be an address');
    try {
      signer = byteString(addresses.toRaw(e.signer));
    } catch (error) {
      throw new RunRequestError(`env.signer: ${(error as Error).message}`);
    }
  }
  const deposits = new Map<string, bigint>();
  const coin = e.coinvalue === undefined ? 0n : uint(e.coinvalue, 'env.coinvalue');
  if (coin > 0n) deposits.set(ZERO, coin);
  const assetMap = (value: unknown, field: string): Map<string, bigint> => {
    const map = new Map<string, bigint>();
    if (value === undefined) return map;
    if (!isObject(value)) throw new RunRequestError(`${field} must be an object {asset id (64 hex): amount}`);
    for (const [asset, amount] of Object.entries(value))
      map.set(hash32(asset, `${field} key ${asset}`), uint(amount, `${field}.${asset}`));
    return map;
  };
  for (const [asset, amount] of assetMap(e.assets, 'env.assets')) deposits.set(asset, amount);
  const sc: RpcArgument[] = [
    { name: 'SC_ACTION', datatype: 'U', value: 0n },
    { name: 'SC_ID', datatype: 'H', value: Buffer.from(scid, 'latin1').toString('hex') },
    ...args.filter((a) => !['SC_ACTION', 'SC_ID'].includes(a.name)),
  ];
  const context: CallContext = {
    scid,
    blid: e.blid === undefined ? ZERO : hash32(e.blid, 'env.blid'),
    txid: e.txid === undefined ? ZERO : hash32(e.txid, 'env.txid'),
    height: e.height === undefined ? 0n : uint(e.height, 'env.height'),
    timestampMs: e.timestamp === undefined ? 0n : uint(e.timestamp, 'env.timestamp'),
    signer,
    deposits,
    fee: e.fee === undefined ? 0n : uint(e.fee, 'env.fee'),
    argumentsGas: BigInt(encodeRpcArguments(sc).length),
  };
  return { context, balances: assetMap(e.balances, 'env.balances') };
}

/** Runs one request; a malformed request throws RunRequestError, anything the contract does is in the response. */
export function runContractRequest(
  vm: ContractVm,
  addresses: AddressCodec,
  core: { keccak256(d: Uint8Array): Uint8Array },
  input: unknown,
): RunResponse {
  if (!isObject(input))
    throw new RunRequestError('the request must be a JSON object with at least code and entrypoint');
  const { code, entrypoint } = input;
  if (typeof code !== 'string') throw new RunRequestError('code must be the contract source as a string');
  if (typeof entrypoint !== 'string' || entrypoint === '') throw new RunRequestError('entrypoint must name a function');
  let args: RpcArgument[];
  try {
    args = parseRpcArguments(input.args ?? [], 'args');
  } catch (error) {
    throw new RunRequestError((error as Error).message);
  }
  args = [...args.filter((a) => a.name !== 'entrypoint'), { name: 'entrypoint', datatype: 'S', value: entrypoint }];
  const { context, balances } = readContext(input.env, code, addresses, args, core);
  const store = readStore(input.store);
  const empty = {
    ok: false,
    committed: false,
    type: null,
    result: '',
    gas: { compute: 0, storage: 0 },
    writes: [],
    transfers: [],
    code: null,
  };
  let contract;
  try {
    contract = vm.compile(code);
  } catch (error) {
    if (!(error instanceof ContractCompileError)) throw error;
    return {
      ...empty,
      error: {
        phase: 'install',
        message: compileFailureText(error),
        function: error.functionName,
        line: error.sourceLine,
      },
    };
  }
  const refusal = entryPointRefusal(contract.functions, entrypoint, 'the contract');
  if (refusal) throw new RunRequestError(refusal.message);
  const result = vm.call({
    contract,
    entrypoint,
    args,
    context,
    storage: {
      load: (key) => store.get(typeof key === 'bigint' ? `U${key}` : `S${key}`)?.value,
      balance: (asset) => balances.get(asset) ?? 0n,
    },
  });
  const shown = result.value === undefined ? undefined : writeValue(result.value);
  return {
    ok: result.ok,
    committed: result.committed,
    type: result.value === undefined ? null : typeof result.value === 'bigint' ? 'Uint64' : 'String',
    result: shown === undefined ? '' : String(shown.value),
    ...(shown?.hex ? { encoding: 'hex' as const } : {}),
    error: result.error
      ? {
          phase: 'run',
          message: result.error.message,
          function: result.error.function,
          line: result.error.line === undefined ? null : Number(result.error.line),
        }
      : null,
    gas: { compute: Number(result.gas.compute), storage: Number(result.gas.storage) },
    writes: result.writes.map(({ key, value }) => {
      const k = writeValue(key);
      const entry: StoreEntry = { ktype: k.type, key: k.value };
      if (k.hex) entry.kencoding = 'hex';
      if (value === undefined) return { ...entry, deleted: true };
      const v = writeValue(value);
      return { ...entry, vtype: v.type, value: v.value, ...(v.hex ? { encoding: 'hex' as const } : {}) };
    }),
    transfers: result.transfers.map((t) => ({
      asset: Buffer.from(t.asset, 'latin1').toString('hex'),
      address: addresses.fromRaw(Buffer.from(t.to, 'latin1')),
      amount: jsonUint(t.amount),
    })),
    code: result.code ?? null,
  };
}
