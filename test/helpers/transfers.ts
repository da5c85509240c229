/**
 * Accounts, registrations and transfers on a test chain, built with the real builder and proofs — the way a wallet
 * does, without one: rings from the registered keys, balances read from the chain and decrypted.
 */
import { randomBytes } from 'node:crypto';
import type { BalanceTable } from '../../core-native/ts/balance.js';
import { ElGamal } from '../../core-native/ts/elgamal.js';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { mod } from '../../core-native/ts/proof/field.js';
import { NETWORKS } from '../../protocol/network.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeRpcArguments, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { buildTransfer, type BuiltTransfer, type PayloadSpec } from '../../protocol/transfer-builder.js';
import { NATIVE_SCID, type BalanceLookup } from '../../protocol/transfer-checks.js';
import { encodeTransaction, TxType } from '../../protocol/transaction.js';
import { premineSecret } from '../../protocol/premine.js';
import { mineBlock, type TestChain } from './chain.js';

export interface Account {
  readonly sk: Uint8Array;
  /** Compressed public key. */
  readonly key: Uint8Array;
}

export function accountFromSecret(t: TestChain, sk: Uint8Array): Account {
  const { G } = t.core.generators(NETWORKS[t.network].generatorDomain);
  return { sk, key: t.core.g1Compress(t.core.g1MulSecret(G, sk)) };
}

export const newAccount = (t: TestChain): Account =>
  accountFromSecret(t, bigintToBytes32BE(mod(bigintFromBytesBE(randomBytes(32))) || 1n));
export const premineAccount = (t: TestChain): Account => accountFromSecret(t, premineSecret(t.core, t.network));

/** The registration transaction of an account, as bytes (no proof of work on the simulator). */
export function registrationBytes(t: TestChain, account: Account): Uint8Array {
  const { G } = t.core.generators(NETWORKS[t.network].generatorDomain);
  return encodeTransaction(makeRegistration(t.core, G, account.sk, t.chain.params.registrationPowBits));
}

/** Registers fresh accounts through the pool and one mined block. */
export async function registeredAccounts(t: TestChain, count: number): Promise<Account[]> {
  const accounts = Array.from({ length: count }, () => newAccount(t));
  for (const account of accounts) t.pool.add(registrationBytes(t, account));
  await mineBlock(t);
  return accounts;
}

const tables = new WeakMap<object, BalanceTable>();

/**
 * An account's balance of an asset in the latest state: decrypted, then found by a small baby-step giant-step table
 * or among `hints` (large balances such as the premine's). Undefined when the account holds no entry.
 */
export function balanceOf(
  t: TestChain,
  account: Account,
  asset: Uint8Array = NATIVE_SCID,
  hints: bigint[] = [],
): bigint | undefined {
  const stored = t.chain.stateAt().getBalance(asset, account.key);
  if (!stored) return undefined;
  const { G } = t.core.generators(NETWORKS[t.network].generatorDomain);
  const elgamal = new ElGamal(t.core, G);
  const point = elgamal.decryptToPoint(
    { L: t.core.g1Decompress(stored.L), R: t.core.g1Decompress(stored.R) },
    account.sk,
  );
  const hinted = hints.find((hint) => Buffer.from(elgamal.amountPoint(hint)).equals(point));
  if (hinted !== undefined) return hinted;
  let table = tables.get(t.core);
  if (!table) tables.set(t.core, (table = t.core.buildBalanceTable(G, 14)));
  const value = table.decode(point, { maxValue: 1n << 28n });
  if (value === null)
    throw new Error(
      `balance of ${Buffer.from(account.key).toString('hex')} is not small and not among the hints ${hints.join(', ')}`,
    );
  return value;
}

/**
 * The premine account's balance when it mined every block and sent nothing: the premine plus every reward, plus
 * `fees` it collected, less `spent`.
 */
export function premineBalance(t: TestChain, spent = 0n, fees = 0n): bigint {
  let total = t.chain.params.premineAmount + fees - spent;
  for (let h = 1n; h <= t.chain.top.height; h++) total += t.chain.metaAtTopo(h)!.reward;
  return total;
}

export interface TransferOptions {
  ringSize?: number;
  fee?: bigint;
  burn?: bigint;
  scid?: Uint8Array;
  type?: TxType.Normal | TxType.SmartContract;
  scArgs?: RpcArgument[];
  /** Arguments for the receiver's payload. */
  payloadArgs?: RpcArgument[];
  /** Ring positions of the sender and the receiver (opposite parity); default 0 and 1. */
  senderIndex?: number;
  receiverIndex?: number;
  /** The sender's balance of the asset (default: decoded from the chain, with the premine's computed). */
  senderBalance?: bigint;
  /** Ring members besides the sender and the receiver (default: other registered keys). */
  decoys?: Uint8Array[];
  /** Where the builder reads ring balances (default: the latest state). */
  balanceAt?: BalanceLookup;
}

/** Builds a one-payload transfer from `from` to `to` against the current top. */
export function buildTestTransfer(
  t: TestChain,
  from: Account,
  to: Uint8Array,
  amount: bigint,
  options: TransferOptions = {},
): BuiltTransfer {
  const ringSize = options.ringSize ?? 2;
  const scid = options.scid ?? NATIVE_SCID;
  const senderIndex = options.senderIndex ?? 0;
  const receiverIndex = options.receiverIndex ?? 1;
  const state = t.chain.stateAt();
  const hex = (k: Uint8Array): string => Buffer.from(k).toString('hex');
  const decoys = (options.decoys ?? state.balanceKeys(NATIVE_SCID)).filter(
    (k) => hex(k) !== hex(from.key) && hex(k) !== hex(to),
  );
  if (decoys.length < ringSize - 2)
    throw new Error(`a ring of ${ringSize} needs ${ringSize - 2} other registered keys, there are ${decoys.length}`);
  const ring: Uint8Array[] = [];
  let next = 0;
  for (let i = 0; i < ringSize; i++)
    ring.push(i === senderIndex ? from.key : i === receiverIndex ? to : decoys[next++]!);
  const payload: PayloadSpec = {
    scid,
    ring,
    senderIndex,
    receiverIndex,
    amount,
    burn: options.burn ?? 0n,
    fee: scid === NATIVE_SCID ? (options.fee ?? 0n) : 0n,
    args: encodeRpcArguments(options.payloadArgs ?? []),
  };
  const top = t.chain.top;
  const isPremine = hex(from.key) === hex(t.premine);
  return buildTransfer(t.core, t.core.generators(NETWORKS[t.network].generatorDomain), {
    type: options.type ?? (options.scArgs ? TxType.SmartContract : TxType.Normal),
    secretKey: from.sk,
    reference: { height: top.height, blid: top.id, roothash: top.stateRoot },
    payloads: [payload],
    scData: options.scArgs ? encodeRpcArguments(options.scArgs) : undefined,
    balanceAt: options.balanceAt ?? ((asset, key) => state.getBalance(asset, key)),
    senderBalance: (asset) =>
      options.senderBalance ?? balanceOf(t, from, asset, isPremine ? [premineBalance(t)] : []) ?? 0n,
  });
}
