/**
 * Gets the simulator's accounts ready at start: registers every key not yet registered (one block), then pays each
 * newly registered one `amount` from the premine — one transaction with a payload per account (ring 2: the premine's
 * parity is public anyway on the simulator), at most 32 payloads per transaction and one transaction per block,
 * since a sender spends once per block.
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

/** Registers and funds the accounts that are not registered yet; returns how many were new. */
export async function registerAndFund(
  deps: FundingDeps,
  accounts: readonly SimulatorAccount[],
  amount: bigint,
): Promise<number> {
  const { core, chain, pool } = deps;
  const gens = core.generators(deps.domain);
  const fresh = accounts.filter((a) => !chain.isRegistered(a.publicKey));
  if (fresh.length === 0) return 0;
  for (const account of fresh)
    pool.add(encodeTransaction(makeRegistration(core, gens.G, account.secretKey, chain.params.registrationPowBits)));
  await deps.mine();
  for (let start = 0; start < fresh.length; start += MAX_PAYLOADS) {
    const batch = fresh.slice(start, start + MAX_PAYLOADS);
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
      payloads: batch.map((account) => ({
        scid: NATIVE_SCID,
        ring: [deps.premineKey, account.publicKey],
        senderIndex: 0,
        receiverIndex: 1,
        amount,
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
  return fresh.length;
}
