/**
 * Balances of the states transfers reference, read once: a block's state never changes, and the same ring members of
 * the same few states are read again and again — when a transfer is verified, when the pool admits it, by every
 * template and block that checks its nonce heights, and when the pool re-checks it after each block.
 */
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import type { AccountsReader } from './accounts.js';
import type { ExecutionView } from './chain.js';
import type { BlockMeta } from './chain-store.js';
import { balanceId } from './state/balance-id.js';

export type BalanceReader = Pick<AccountsReader, 'getBalance'>;

/** A referenced state's balances, which can also be read ahead many at a time. */
export interface ReferencedReader extends BalanceReader {
  /** Reads the balances of `keys` not yet remembered, together (one walk of the state tree). */
  preload(asset: Uint8Array, keys: readonly Uint8Array[]): void;
}

/** States remembered: a transfer references one of the last 11 blocks, on this branch or a competing one. */
const STATES = 24;
/**
 * Balances remembered over all states (≈ 300 bytes each); beyond it every state's memory starts over, so that
 * transfers referencing many states with many ring members cost a bounded amount of memory.
 */
const BALANCES = 1 << 16;

export class ReferencedBalances {
  /** State version → balanceId(asset, key) → balance, null for none. */
  private readonly states = new Map<bigint, Map<string, NonceBalance | null>>();
  /** Balances remembered in all the states' maps. */
  private remembered = 0;

  constructor(private readonly limit = BALANCES) {}

  /** The state after `reference`, its balance reads remembered. */
  reader(view: ExecutionView, reference: BlockMeta): ReferencedReader {
    let known = this.states.get(reference.stateVersion);
    if (!known) {
      known = new Map();
      this.states.set(reference.stateVersion, known);
      if (this.states.size > STATES) {
        const [oldest, forgotten] = this.states.entries().next().value!;
        this.remembered -= forgotten.size;
        this.states.delete(oldest);
      }
    }
    const balances = known;
    let state: AccountsReader | undefined;
    const remember = (id: string, balance: NonceBalance | undefined): void => {
      if (this.remembered >= this.limit) {
        for (const state of this.states.values()) state.clear();
        this.remembered = 0;
      }
      if (!balances.has(id)) this.remembered++;
      balances.set(id, balance ?? null);
    };
    return {
      getBalance(asset, key) {
        const id = balanceId(asset, key);
        const seen = balances.get(id);
        if (seen !== undefined) return seen ?? undefined;
        state ??= view.stateAt(reference);
        const balance = state.getBalance(asset, key);
        remember(id, balance);
        return balance;
      },
      preload(asset, keys) {
        const ids = keys.map((key) => balanceId(asset, key));
        const unknown = ids.flatMap((id, i) => (balances.has(id) ? [] : [i]));
        if (unknown.length === 0) return;
        state ??= view.stateAt(reference);
        const read = state.getBalances(
          asset,
          unknown.map((i) => keys[i]!),
        );
        unknown.forEach((i, j) => remember(ids[i]!, read[j]));
      },
    };
  }
}
