/**
 * The wallet's history sync, per asset: the native coin and every token the wallet follows (assets it sent or
 * called, contracts it installed, assets named in GetBalance/GetTransfers, and the scid of any payload whose ring
 * holds the wallet in a block the sync reads). For each asset, from where the wallet last stopped (a topoheight, its
 * block hash and the encrypted balance of that asset there) to the top, it finds the blocks in which that encrypted
 * balance changed and reads each such block, and records what the block scanner finds in it (block-scanner.ts). How
 * the top, the balances, the changes and the blocks are read — and so what the daemon learns and what is proven — is
 * the wallet's mode (chain-access/). A token the account never held has no entry in the asset's balance tree: it is
 * the implicit zero balance, compared as the empty string.
 *
 * Token entries carry `scid`. The positions (the native one and one per followed token) and the entries go to the
 * wallet file (when there is one) after every 100 blocks and at the end. A block hash that no longer matches at an
 * asset's saved position (a reorganisation) drops that asset's chain-found entries and starts it again from the
 * registration; outgoing entries keep their payloads and are found again, and at the end of each run those the chain
 * does not hold are asked about (TransferHistory.confirm: mined since, still in the pool, or dropped). `onBalanceChange`
 * tells of each asset whose amount a run changed.
 */
import type { BalanceAt } from './balance-changes.js';
import { BlockScanner, IMPLICIT_ZERO, type BlockScan, type ChainBlock } from './block-scanner.js';
import type { TransferHistory } from './transfer-history.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import type { WalletContext } from './wallet-context.js';

/** Where the sync stopped: the state after block `topoheight`. */
export interface SyncPosition {
  topoheight: number;
  blockhash: string;
  /** The encrypted balance there (GetEncryptedBalance hex) and its amount (decimal). */
  data: string;
  amount: string;
}

/** An asset's balance as synced changed: the amount known before a sync run (0 at the first) and after it. */
export interface BalanceChange {
  scid: string;
  before: bigint;
  after: bigint;
}

export interface SyncOptions {
  /** Called after progress worth keeping (every 100 blocks and at the end of a run). */
  save?: () => void;
  /** Called while a run reads blocks: blocks read so far of `total`. */
  progress?: (done: number, total: number) => void;
}

const SAVE_EVERY = 100;

export class HistorySync {
  /** The native coin's position. */
  position?: SyncPosition;
  /** The followed tokens and their positions (none before their first sync). */
  readonly tokens = new Map<string, SyncPosition | undefined>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly scanner: BlockScanner;
  /** Blocks read during the current run (several assets may change in one block). */
  private blocks = new Map<number, Promise<ChainBlock>>();
  private readonly balanceListeners = new Set<(change: BalanceChange) => void>();

  constructor(
    private readonly context: WalletContext,
    private readonly history: TransferHistory,
    private readonly options: SyncOptions = {},
  ) {
    this.scanner = new BlockScanner(context);
  }

  /** Follows a token from the next sync on (its history is read from the registration); the native coin always is. */
  follow(scid: string): void {
    if (scid !== NATIVE_ASSET && /^[0-9a-f]{64}$/.test(scid) && !this.tokens.has(scid))
      this.tokens.set(scid, undefined);
  }

  /** The followed tokens with their positions, for the wallet file. */
  tokensToJSON(): Record<string, SyncPosition | null> {
    return Object.fromEntries([...this.tokens].map(([scid, position]) => [scid, position ?? null]));
  }

  /** Restores `tokensToJSON`'s form. */
  loadTokens(stored: unknown): void {
    this.tokens.clear();
    if (typeof stored !== 'object' || stored === null) return;
    for (const [scid, position] of Object.entries(stored)) {
      this.follow(scid);
      if (this.tokens.has(scid) && typeof position === 'object' && position !== null)
        this.tokens.set(scid, position as SyncPosition);
    }
  }

  /** Calls `listener` each time a run ends with an asset's amount other than before it; returns the removal. */
  onBalanceChange(listener: (change: BalanceChange) => void): () => void {
    this.balanceListeners.add(listener);
    return () => this.balanceListeners.delete(listener);
  }

  /** Syncs to the daemon's current top; calls run one after another. Resolves to the topoheight synced to. */
  run(): Promise<number> {
    const run = this.queue.then(() => this.syncOnce());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async syncOnce(): Promise<number> {
    this.blocks = new Map();
    try {
      const { access } = this.context;
      const top = (await access.top()).topoheight;
      const topData = await access.ownBalance(NATIVE_ASSET, top);
      if (topData === undefined) return top; // not registered (yet): nothing to read
      // Assets the wallet sent have entries; follow them even when the wallet file predates following.
      for (const [scid] of this.history.assets()) this.follow(scid);
      let asked: Promise<number> | undefined;
      const registration = (): Promise<number> => (asked ??= access.registration(top));
      await this.syncAsset(NATIVE_ASSET, registration, top, topData);
      // A block read may reveal a token (a payload whose ring holds the wallet): it is synced in this run too.
      const done = new Set<string>();
      for (let scid = this.nextToken(done); scid !== undefined; scid = this.nextToken(done)) {
        done.add(scid);
        await this.syncAsset(scid, registration, top, (await access.ownBalance(scid, top)) ?? IMPLICIT_ZERO);
      }
      // Sent transactions the chain read does not hold: mined since, still in the pool, or dropped.
      await this.history.confirm(this.context.sendDaemon);
      this.history.sort();
      this.save();
      return top;
    } finally {
      this.blocks = new Map();
    }
  }

  private nextToken(done: Set<string>): string | undefined {
    return [...this.tokens.keys()].find((scid) => !done.has(scid));
  }

  private positionOf(scid: string): SyncPosition | undefined {
    return scid === NATIVE_ASSET ? this.position : this.tokens.get(scid);
  }

  private setPosition(scid: string, position: SyncPosition | undefined): void {
    if (scid === NATIVE_ASSET) this.position = position;
    else this.tokens.set(scid, position);
  }

  /** Syncs one asset to `top`, whose encrypted balance is `topData`, and tells when its amount changed. */
  private async syncAsset(
    scid: string,
    registration: () => Promise<number>,
    top: number,
    topData: string,
  ): Promise<void> {
    const before = BigInt(this.positionOf(scid)?.amount ?? 0);
    await this.advanceAsset(scid, registration, top, topData);
    const after = BigInt(this.positionOf(scid)?.amount ?? 0);
    if (after !== before) for (const listener of this.balanceListeners) listener({ scid, before, after });
  }

  /** Moves one asset's position from where it is (or the registration) to `top`, recording what it finds. */
  private async advanceAsset(
    scid: string,
    registration: () => Promise<number>,
    top: number,
    topData: string,
  ): Promise<void> {
    let start = this.positionOf(scid);
    if (start && (await this.context.access.headerHash(start.topoheight)) !== start.blockhash) {
      this.rewind(scid);
      start = undefined;
    }
    if (!start) {
      start = await this.opening(scid, await registration());
      this.setPosition(scid, start);
    }
    if (top <= start.topoheight) return;
    const changes = await this.context.access.balanceChanges(scid, start, { topoheight: top, data: topData }, (topos) =>
      this.readBlocks(topos),
    );
    let amount = BigInt(start.amount);
    let done = 0;
    const report = (): void => this.options.progress?.(done, changes.length);
    // Blocks are read one batch ahead and applied in order.
    const readBatch = (i: number): Promise<ChainBlock[]> =>
      this.readBlocks(changes.slice(i, i + SAVE_EVERY).map(({ topoheight }) => topoheight));
    let ahead = changes.length > 0 ? readBatch(0) : undefined;
    for (let i = 0; i < changes.length; i += SAVE_EVERY) {
      const batch = changes.slice(i, i + SAVE_EVERY);
      const blocks = await ahead!;
      ahead = i + SAVE_EVERY < changes.length ? readBatch(i + SAVE_EVERY) : undefined;
      ahead?.catch(() => undefined); // a failure is thrown where it is awaited, in the next round
      for (const scan of this.scanBatch(scid, blocks, batch, amount)) {
        this.record(scid, scan);
        amount = scan.amount;
        done++;
      }
      const last = blocks[blocks.length - 1]!;
      this.setPosition(scid, {
        topoheight: last.topoheight,
        blockhash: last.header.hash,
        data: batch[batch.length - 1]!.data,
        amount: amount.toString(),
      });
      report();
      if (i + SAVE_EVERY < changes.length) this.save();
    }
    const topHash = await this.context.access.headerHash(top);
    this.setPosition(scid, { topoheight: top, blockhash: topHash ?? '', data: topData, amount: amount.toString() });
  }

  /**
   * What the scanner finds in consecutive blocks (`changes` holds the balance after each), starting from `before`.
   * A block without transactions changes the amount by its coinbase share alone, so its balance is not decoded: one
   * decode checks such a run where it ends. Should a check fail, every balance of the batch is decoded.
   */
  private scanBatch(scid: string, blocks: ChainBlock[], changes: BalanceAt[], before: bigint): BlockScan[] {
    const history = this.history.entries(scid);
    const scans: BlockScan[] = [];
    let amount = before;
    let unchecked = false;
    const checked = (k: number): boolean => !unchecked || this.scanner.amountOf(changes[k]!.data, amount) === amount;
    for (const [k, block] of blocks.entries()) {
      const decode = block.txs.length > 0;
      if (decode && !checked(k - 1)) return this.scanEach(scid, blocks, changes, before);
      const scan = this.scanner.scan(scid, block, changes[k]!.data, amount, history, decode);
      unchecked = !decode;
      amount = scan.amount;
      scans.push(scan);
    }
    return checked(blocks.length - 1) ? scans : this.scanEach(scid, blocks, changes, before);
  }

  /** What the scanner finds in consecutive blocks, each balance decoded. */
  private scanEach(scid: string, blocks: ChainBlock[], changes: BalanceAt[], before: bigint): BlockScan[] {
    const history = this.history.entries(scid);
    let amount = before;
    return blocks.map((block, k) => {
      const scan = this.scanner.scan(scid, block, changes[k]!.data, amount, history);
      amount = scan.amount;
      return scan;
    });
  }

  /** Records what the scanner found in a block. */
  private record(scid: string, scan: BlockScan): void {
    // The wallet is a ring member of another asset's payload: that asset is followed (and read in this run).
    for (const asset of scan.assets) this.follow(asset);
    for (const { entry, fields } of scan.mined) {
      Object.assign(entry, fields);
      delete entry.dropped; // a block holds it after all
    }
    for (const entry of scan.entries) this.history.add(scid, entry);
  }

  private save(): void {
    this.options.save?.();
  }

  /** The position at the registration block (a balance already there is recorded as a credit). */
  private async opening(scid: string, registration: number): Promise<SyncPosition> {
    const data = (await this.context.access.ownBalance(scid, registration)) ?? IMPLICIT_ZERO;
    const [{ header }] = (await this.readBlocks([registration])) as [ChainBlock];
    const { amount, entries } = this.scanner.opening(scid, header, registration, data);
    for (const entry of entries) this.history.add(scid, entry);
    return { topoheight: registration, blockhash: header.hash, data, amount: amount.toString() };
  }

  /** Drops what the chain told of an asset (a reorganisation): incoming entries go, outgoing ones wait to be found again. */
  private rewind(scid: string): void {
    this.setPosition(scid, undefined);
    const entries = this.history.entries(scid);
    const kept = entries.filter((entry) => !entry.incoming && !entry.coinbase);
    for (const entry of kept) {
      Object.assign(entry, { height: 0, topoheight: -1, blockhash: '' });
      delete entry.sc_outcome; // the block that executes it again decides anew
    }
    entries.splice(0, entries.length, ...kept);
  }

  /** Blocks, each read once per run however many assets changed in it. */
  private readBlocks(topoheights: readonly number[]): Promise<ChainBlock[]> {
    const missing = [...new Set(topoheights.filter((topoheight) => !this.blocks.has(topoheight)))];
    if (missing.length > 0) {
      const read = this.context.access.readBlocks(missing);
      read.catch(() => undefined); // a failure is thrown where a block is awaited
      missing.forEach((topoheight, i) =>
        this.blocks.set(
          topoheight,
          read.then((blocks) => blocks[i]!),
        ),
      );
    }
    return Promise.all(topoheights.map((topoheight) => this.blocks.get(topoheight)!));
  }
}
