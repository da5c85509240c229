/**
 * Gets the simulator's accounts ready at every start: registers every key not yet registered (one block), then pays
 * each account that holds less than `amount` the difference from the premine — so a start interrupted between the
 * registrations and the payments (a SIGKILL) is completed by the next `--keep` start, and nothing is paid twice. One
 * transaction carries a payload per account (ring 2: the premine's parity is public anyway on the simulator), at most
 * 32 payloads per transaction and one transaction per block, since a sender spends once per block.
 */
import type { Core } from '../../core-native/ts/core.js';
import { toHex } from '../../host/protocol/bytes.js';
import { encodeNonceBalance } from '../../host/protocol/nonce-balance.js';
import { makeRegistration } from '../../host/protocol/registration.js';
import { MAX_PAYLOADS, encodeTransaction, TxType } from '../../host/protocol/transaction.js';
import { buildTransfer } from '../../host/protocol/transfer-builder.js';
import { NATIVE_SCID } from '../../host/protocol/transfer-checks.js';
import type { ChainService } from '../../host/services/chain.js';
import type { SimulatorAccount } from '../../host/services/simulator.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import type { BalanceDecoder } from '../../wallet/balance-decoder.js';

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
}

/** An account's balance of the native coin, decoded with its own key (0 before it is registered). */
function balanceOf(deps: FundingDeps, account: SimulatorAccount, guess: bigint): bigint {
  const stored = deps.chain.balance(NATIVE_SCID, account.publicKey);
  return stored ? deps.decoder.decode(toHex(encodeNonceBalance(stored)), account.secretKey, guess) : 0n;
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
    const batch = short.slice(start, start + MAX_PAYLOADS);
    const top = chain.top;
    const stored = chain.balance(NATIVE_SCID, deps.premineKey)!;
    // First guess: the premine plus every reward, true while the premine key has mined every block and sent nothing.
    let guess = chain.params.premineAmount;
    for (let h = 1n; h <= top.height; h++) guess += chain.metaAtTopo(h)?.reward ?? 0n;
    const balance = deps.decoder.decode(toHex(encodeNonceBalance(stored)), deps.premineSecret, guess);
    const built = buildTransfer(core, gens, {
      type: TxType.Normal,
      secretKey: deps.premineSecret,
      reference: { height: top.height, blid: top.id, roothash: top.stateRoot },
      payloads: batch.map(({ account, missing }) => ({
        scid: NATIVE_SCID,
        ring: [deps.premineKey, account.publicKey],
        senderIndex: 0,
        receiverIndex: 1,
        amount: missing,
        burn: 0n,
        fee: 0n,
        args: new Uint8Array(0),
      })),
      balanceAt: (asset, key) => chain.balance(asset, key),
      senderBalance: () => balance,
    });
    pool.add(built.bytes);
    await deps.mine();
  }
  return short.length;
}
