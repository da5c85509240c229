/**
 * One installed contract played call after call outside the chain: its store, its balances and its code carried from
 * one committed call to the next the way the chain carries them (writes applied, deposits credited, payments debited,
 * UPDATE_SC_CODE taking effect from the next call). A call that does not commit changes nothing. Used by
 * `umbra contract test`, `umbra contract run --state` and the tests.
 */
import type { RunResponse, StoreEntry } from './contract-runner.js';

export const COIN_HEX = '0'.repeat(64);

/** What runs one JSON request (contract-runner.ts's runContractRequest, bound to a VM). */
export interface ContractRunner {
  run(request: Record<string, unknown>): RunResponse;
}

export interface CallOptions {
  /** The caller's address; absent = anonymous. */
  signer?: string;
  coinvalue?: Amount;
  /** Deposited assets, asset id (64 hex) → amount. */
  assets?: Record<string, Amount>;
  /** The sc_rpc arguments. */
  args?: { name: string; datatype: 'S' | 'U' | 'H'; value: string | number }[];
  height?: Amount;
  timestamp?: Amount;
  txid?: string;
  blid?: string;
  fee?: Amount;
}

/** A session as saved between runs (`contract run --state FILE`). */
export interface SessionState {
  scid: string;
  /** The code set by UPDATE_SC_CODE, when a committed call replaced the file's. */
  code?: string;
  store: StoreEntry[];
  balances: Record<string, string>;
}

/** A number, or its decimal text (the runner checks it). */
type Amount = number | bigint | string;

const amount = (v: Amount | undefined): string | undefined => (v === undefined ? undefined : v.toString());

export class ContractSession {
  readonly store = new Map<string, StoreEntry>();
  readonly balances = new Map<string, bigint>();
  /** Whether a committed UPDATE_SC_CODE replaced the code the session started with. */
  codeReplaced = false;

  constructor(
    private readonly runner: ContractRunner,
    public code: string,
    /** 64 hex; the contract's own asset id too. */
    readonly scid: string,
  ) {}

  call(entrypoint: string, options: CallOptions = {}): RunResponse {
    const { signer, coinvalue, assets, args, txid, blid, fee, height, timestamp } = options;
    const response = this.runner.run({
      code: this.code,
      entrypoint,
      args: args ?? [],
      env: {
        scid: this.scid,
        signer,
        txid,
        blid,
        fee: amount(fee),
        height: amount(height),
        timestamp: amount(timestamp),
        coinvalue: amount(coinvalue),
        assets: assets && Object.fromEntries(Object.entries(assets).map(([k, v]) => [k, v.toString()])),
        balances: Object.fromEntries([...this.balances].map(([k, v]) => [k, v.toString()])),
      },
      store: [...this.store.values()],
    });
    if (response.committed) this.apply(response, coinvalue, assets);
    return response;
  }

  private apply(
    response: RunResponse,
    coinvalue: Amount | undefined,
    assets: Record<string, Amount> | undefined,
  ): void {
    for (const write of response.writes) {
      const id = `${write.ktype}:${write.key}`;
      if (write.deleted) this.store.delete(id);
      else this.store.set(id, write);
    }
    // The contract's own asset is minted as it pays it out: it has no balance of it.
    const credit = (asset: string, amount: bigint): void => {
      if (asset !== this.scid) this.balances.set(asset, (this.balances.get(asset) ?? 0n) + amount);
    };
    if (coinvalue !== undefined) credit(COIN_HEX, BigInt(coinvalue));
    for (const [asset, amount] of Object.entries(assets ?? {})) credit(asset.toLowerCase(), BigInt(amount));
    for (const t of response.transfers) credit(t.asset, -BigInt(t.amount));
    if (response.code !== null) {
      this.code = response.code;
      this.codeReplaced = true;
    }
  }

  /** A stored String-keyed value as the runner shows it (text, hex for raw bytes, or a number), or undefined. */
  get(key: string): string | number | undefined {
    return this.store.get(`S:${key}`)?.value;
  }

  balance(asset = COIN_HEX): bigint {
    return this.balances.get(asset) ?? 0n;
  }

  save(): SessionState {
    return {
      scid: this.scid,
      ...(this.codeReplaced ? { code: this.code } : {}),
      store: [...this.store.values()],
      balances: Object.fromEntries([...this.balances].map(([k, v]) => [k, v.toString()])),
    };
  }

  /** Takes over a saved store, balances and replaced code (checked by the runner at the next call). */
  restore(state: SessionState): void {
    if (state.code !== undefined) {
      this.code = state.code;
      this.codeReplaced = true;
    }
    for (const entry of state.store) this.store.set(`${entry.ktype}:${entry.key}`, entry);
    for (const [asset, value] of Object.entries(state.balances)) this.balances.set(asset, BigInt(value));
  }
}
