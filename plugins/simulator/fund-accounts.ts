/**
 * Gets the simulator's accounts ready at every start: registers every key not yet registered (one block), then pays
 * each account that holds less than `amount` the difference from the premine — so a start interrupted between the
 * registrations and the payments (a SIGKILL) is completed by the next `--keep` start, and nothing is paid twice. One
 * transaction carries a payload per account (ring 2: the premine's parity is public anyway on the simulator), at most
 * 32 payloads per transaction and one transaction per block, since a sender spends once per block.
 */
import type { Core } from '../../core-native/ts/core.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { toHex } from '../../protocol/bytes.js';
import { encodeNonceBalance } from '../../protocol/nonce-balance.js';
import { makeRegistration } from '../../protocol/registration.js';
import { MAX_PAYLOADS, encodeTransaction, TxType } from '../../protocol/transaction.js';
import { prepareTransfer, sealTransfer } from '../../protocol/transfer-builder.js';
import { NATIVE_SCID } from '../../protocol/transfer-checks.js';
import type { ChainService } from '../../host/services/chain.js';
import type { SimulatorAccount } from '../../host/services/simulator.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import type { BalanceDecoder } from '../../wallet/balance-decoder.js';
import { proveInParallel } from './parallel-prover.js';

export interface FundingDeps {
  core: Core;
  domain: string;
  chain: ChainService;
  pool: TxPoolService;
  decoder: BalanceDecoder;
  premineSecret: Uint8Array;
  premineKey: Uint8Array;
  /** Mines one block now. */
  mine(): Promise<unknown>;
  /** Runs a task while no block is being made (a payment is built against the top and must reach the pool on it). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** What the premine has paid per asset (hex) since this process started: its balance is then easy to decode. */
  spent: Map<string, bigint>;
}

/**
 * An account's balance of the native coin, decoded with its own key (0 before it is registered). `guess` and 0 (just
 * registered) are tried first: most starts then never load the balance table (≈ 8.3 MB).
 */
function balanceOf(deps: FundingDeps, account: SimulatorAccount, guess: bigint): bigint {
  const stored = deps.chain.balance(NATIVE_SCID, account.publicKey);
  return stored ? deps.decoder.decode(toHex(encodeNonceBalance(stored)), account.secretKey, [guess, 0n]) : 0n;
}

export const SimulatorErrorCode = {
  /** The premine holds less of an asset than a payment asks. */
  PremineShort: 'simulator.premine-short',
} as const;
export type SimulatorErrorCode = (typeof SimulatorErrorCode)[keyof typeof SimulatorErrorCode];

/** The premine holds less of an asset than a payment asks. */
export class PremineShortError extends UmbraError<SimulatorErrorCode> {
  override readonly name = 'PremineShortError';
  constructor(message: string) {
    super(SimulatorErrorCode.PremineShort, message);
  }
}

/** The premine's balance of an asset, decoded with its key. */
function premineBalance(deps: FundingDeps, scid: Uint8Array): bigint {
  const { chain } = deps;
  const stored = chain.balance(scid, deps.premineKey);
  if (!stored) return 0n;
  // The coin: the premine plus every reward less what it paid (the premine key mines every block); an asset: 0.
  let guess = -(deps.spent.get(toHex(scid)) ?? 0n);
  if (scid.every((b) => b === 0)) {
    guess += chain.params.premineAmount;
    for (let h = 1n; h <= chain.top.height; h++) guess += chain.metaAtTopo(h)?.reward ?? 0n;
  }
  return deps.decoder.decode(toHex(encodeNonceBalance(stored)), deps.premineSecret, guess);
}

/**
 * Puts one transaction in the pool paying each key its amount of an asset (the coin: NATIVE_SCID) from the premine,
 * at most MAX_PAYLOADS payments, their proofs made on every core; returns its txid. Rejects with PremineShortError
 * when the premine holds less than the sum.
 */
export function payFromPremine(
  deps: FundingDeps,
  scid: Uint8Array,
  payments: readonly { key: Uint8Array; amount: bigint }[],
): Promise<Uint8Array> {
  return deps.exclusive(() => payOnTop(deps, scid, payments));
}

async function payOnTop(
  deps: FundingDeps,
  scid: Uint8Array,
  payments: readonly { key: Uint8Array; amount: bigint }[],
): Promise<Uint8Array> {
  const { core, chain } = deps;
  const top = chain.top;
  const balance = premineBalance(deps, scid);
  const total = payments.reduce((sum, p) => sum + p.amount, 0n);
  if (balance < total)
    throw new PremineShortError(`the premine holds ${balance} of asset ${toHex(scid)}, less than ${total}`);
  const payload = (asset: Uint8Array, key: Uint8Array, amount: bigint) => ({
    scid: asset,
    ring: [deps.premineKey, key],
    senderIndex: 0,
    receiverIndex: 1,
    amount,
    burn: 0n,
    fee: 0n,
    args: new Uint8Array(0),
  });
  const native = scid.every((b) => b === 0);
  // Every transfer carries a payload of the coin (the fee's): an asset payment comes with one of 0 coin.
  const coinPayload = native ? [] : [payload(NATIVE_SCID, payments[0]!.key, 0n)];
  const prepared = prepareTransfer(core, core.generators(deps.domain), {
    type: TxType.Normal,
    secretKey: deps.premineSecret,
    reference: { height: top.height, blid: top.id, roothash: top.stateRoot },
    payloads: [...coinPayload, ...payments.map(({ key, amount }) => payload(scid, key, amount))],
    balanceAt: (asset, key) => chain.balance(asset, key),
    senderBalance: (asset) => (asset.every((b) => b === 0) && !native ? premineBalance(deps, NATIVE_SCID) : balance),
  });
  const built = sealTransfer(prepared, await proveInParallel(core, deps.domain, prepared.proofs));
  deps.pool.add(built.bytes);
  deps.spent.set(toHex(scid), (deps.spent.get(toHex(scid)) ?? 0n) + total);
  return built.txid;
}

/** Registers the accounts that are not registered and tops up those holding less than `amount`; returns how many were paid. */
export async function registerAndFund(
  deps: FundingDeps,
  accounts: readonly SimulatorAccount[],
  amount: bigint,
): Promise<number> {
  const { core, chain, pool } = deps;
  const gens = core.generators(deps.domain);
  const fresh = accounts.filter((a) => !chain.isRegistered(a.publicKey));
  for (const account of fresh)
    pool.add(encodeTransaction(makeRegistration(core, gens.G, account.secretKey, chain.params.registrationPowBits)));
  if (fresh.length > 0) await deps.mine();
  const short = accounts
    .map((account) => ({ account, missing: amount - balanceOf(deps, account, amount) }))
    .filter(({ missing }) => missing > 0n);
  for (let start = 0; start < short.length; start += MAX_PAYLOADS) {
    await payFromPremine(
      deps,
      NATIVE_SCID,
      short
        .slice(start, start + MAX_PAYLOADS)
        .map(({ account, missing }) => ({ key: account.publicKey, amount: missing })),
    );
    await deps.mine();
  }
  return short.length;
}
