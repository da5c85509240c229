/**
 * The wallet's light client: a header chain it has checked itself, from a trusted start (trusted-start.ts) to the top
 * of the heaviest chain a daemon has shown it, kept beside the wallet file (header-file.ts), so that every state root
 * the wallet relies on comes from a header it checked (docs/wallet.md § The header chain).
 *
 * A sync asks the daemon for the headers from the verified top on. When the daemon's block there is another, its
 * chain forks below: earlier headers are fetched until the fork point is found. The daemon's headers above the fork
 * point are checked with the node's rules (header-verifier.ts) in runs of up to 1000, and adopted only once they carry
 * more cumulative work than the verified chain; from then on each checked run is saved as it comes. It never goes
 * back: a daemon whose top is below the verified one, or whose fork carries less work, is refused, and a header that
 * fails any check refuses the daemon, nothing from that header on kept (runs checked before it stay: they are verified).
 */
import type { Core } from '../../core-native/ts/core.js';
import { PowCheckPool } from '../../core-native/ts/pow-check-pool.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import { latestCheckpoint, type Checkpoint } from '../../protocol/chain/checkpoints.js';
import { HeaderChain, type ChainHeader } from '../../protocol/chain/header-chain.js';
import type { NetworkName } from '../../protocol/network.js';
import type { DaemonClient } from '../daemon-client.js';
import { WalletError, WalletErrorCode } from '../wallet-error.js';
import { readHeaderFile, writeHeaderFile } from './header-file.js';
import { answerRefused, daemonBehind, lessWork, notOnTrustedChain } from './header-refusals.js';
import { HEADERS_PER_CALL, HeaderSource, type ServedHeader } from './header-source.js';
import { verifyRun } from './header-verifier.js';
import { fetchTrustedStart } from './trusted-start.js';
import type { VerifiedChain } from './verified-chain.js';

export interface LightClientOptions {
  core: Core;
  network: NetworkName;
  /** The header file: headerFilePath(the wallet file). */
  path: string;
  /** Where the chain starts when the file holds none yet (default: the network's latest shipped checkpoint). */
  start?: Checkpoint;
  /** Checks the proofs of work (default: a pool of the client's own on every core, stopped by close()). */
  pool?: PowCheckPool;
  /** The local clock, ms: no block may be more than 50 ms ahead of it. */
  now?: () => bigint;
  /** Hears how far a sync has checked. */
  onProgress?: (progress: SyncProgress) => void;
}

export interface SyncProgress {
  /** The height up to which the daemon's headers are checked. */
  height: bigint;
  /** The daemon's top height, where this sync ends. */
  top: bigint;
}

export interface VerifiedTop extends ChainHeader {
  /** When the sync replaced verified blocks: the height of the last block the old and the new chain share. */
  forkHeight: bigint | null;
}

export class LightClient {
  private ownPool: PowCheckPool | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly options: LightClientOptions,
    private chain: VerifiedChain | undefined,
  ) {}

  /** Opens the chain kept at `options.path` (none yet when there is no file); the file must suit the options. */
  static open(options: LightClientOptions): LightClient {
    const chain = readHeaderFile(options.core, options.path);
    if (chain && chain.start.network !== options.network)
      throw new WalletError(
        WalletErrorCode.HeaderFileDamaged,
        `the header file ${options.path} holds a ${chain.start.network} chain, not a ${options.network} one; delete it to verify the headers again`,
      );
    const start = options.start;
    if (chain && start && !equalBytes(chain.at(start.height)?.id ?? new Uint8Array(0), start.id))
      throw new WalletError(
        WalletErrorCode.BadCheckpoint,
        `checkpoint ${start.height}:${toHex(start.id)} is not on the chain the header file ${options.path} holds ` +
          `(heights ${chain.first.height} to ${chain.top.height}); delete the file to start from the checkpoint`,
      );
    return new LightClient(options, chain);
  }

  /** The top of the verified chain (undefined before the first sync). */
  get top(): ChainHeader | undefined {
    return this.chain?.top;
  }

  /** The first header of the verified chain: where it started (undefined before the first sync). */
  get first(): ChainHeader | undefined {
    return this.chain?.first;
  }

  /** The verified header at a topoheight (the chain is linear: topoheight = height), if the chain holds it. */
  header(topoheight: bigint): ChainHeader | undefined {
    return this.chain?.at(topoheight);
  }

  /** The state root after the block at a topoheight, from a verified header; undefined where none is held. */
  stateRootAt(topoheight: bigint): Uint8Array | undefined {
    return this.header(topoheight)?.stateRoot;
  }

  /** Checks the daemon's chain and follows it when it is the heavier; calls run one after another. */
  sync(daemon: DaemonClient): Promise<VerifiedTop> {
    const run = this.queue.then(() => this.syncWith(new HeaderSource(this.options.core, daemon)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the client's own proof-of-work pool. */
  async close(): Promise<void> {
    await this.ownPool?.close();
    this.ownPool = undefined;
  }

  private readonly pool = (): PowCheckPool =>
    this.options.pool ?? (this.ownPool ??= new PowCheckPool({ impl: this.options.core.impl }));

  private save(chain: VerifiedChain): void {
    writeHeaderFile(this.options.core, this.options.path, chain);
    this.chain = chain;
  }

  private async syncWith(source: HeaderSource): Promise<VerifiedTop> {
    if (!this.chain) {
      const start = this.options.start ?? latestCheckpoint(this.options.network);
      const { core, network } = this.options;
      this.save(await fetchTrustedStart(source, start, { core, network, pool: this.pool }));
    }
    const verified = this.chain!.top;
    const answer = await source.fetch(verified.height, HEADERS_PER_CALL);
    if (answer.top < verified.height)
      throw daemonBehind(source.url, answer.top, verified.height, 'the top the wallet has verified');
    const [own, ...above] = answer.headers;
    if (!own) throw answerRefused(source.url, `served no block ${verified.height} though its top is at ${answer.top}`);
    if (equalBytes(own.id, verified.id)) return this.follow(source, verified.height, above, answer.top);
    return this.follow(source, await this.forkPoint(source), [], answer.top);
  }

  /** The highest height at which the daemon's chain holds the verified block, looking back from below the top. */
  private async forkPoint(source: HeaderSource): Promise<bigint> {
    const chain = this.chain!;
    let below = chain.top.height;
    let lowest: ServedHeader | undefined;
    while (below > chain.first.height) {
      const from =
        below - chain.first.height > BigInt(HEADERS_PER_CALL) ? below - BigInt(HEADERS_PER_CALL) : chain.first.height;
      const wanted = Number(below - from);
      const { headers } = await source.fetchAll(from, wanted);
      if (headers.length < wanted)
        throw answerRefused(source.url, `stopped serving its chain at topoheight ${from + BigInt(headers.length)}`);
      for (let i = headers.length - 1; i >= 0; i--)
        if (equalBytes(headers[i]!.id, chain.at(from + BigInt(i))!.id)) return from + BigInt(i);
      lowest = headers[0];
      below = from;
    }
    throw notOnTrustedChain(source.url, chain.first, lowest?.id);
  }

  /**
   * Checks the daemon's chain above `forkHeight` (starting with the headers already `served`) up to `daemonTop`, and
   * adopts it as soon as it carries more work than the verified chain.
   */
  private async follow(
    source: HeaderSource,
    forkHeight: bigint,
    served: ServedHeader[],
    daemonTop: bigint,
  ): Promise<VerifiedTop> {
    const { core, network, now, onProgress } = this.options;
    const before = this.chain!;
    const headers = new HeaderChain(
      core,
      CHAIN_PARAMS[network],
      before.at(forkHeight)!,
      before.parentTimestamp(forkHeight),
      now ?? (() => BigInt(Date.now())),
    );
    let branch: ChainHeader[] = [];
    let adopted = forkHeight === before.top.height;
    let pending = served;
    for (let next = forkHeight + 1n; next <= daemonTop; ) {
      const left = Number(daemonTop - next + 1n);
      if (pending.length === 0) pending = (await source.fetch(next, Math.min(HEADERS_PER_CALL, left))).headers;
      if (pending.length === 0) break;
      const runStart = next;
      const checked = await verifyRun(pending.slice(0, left), {
        core,
        url: source.url,
        headers,
        pool: this.pool,
        onChecked: (blocks) => onProgress?.({ height: runStart - 1n + BigInt(blocks), top: daemonTop }),
      });
      pending = [];
      next += BigInt(checked.length);
      if (adopted) this.save(this.chain!.withBranch(this.chain!.top.height, checked));
      else {
        branch = branch.concat(checked);
        if (branch.at(-1)!.cumulativeWork > before.top.cumulativeWork) {
          this.save(before.withBranch(forkHeight, branch));
          adopted = true;
        }
      }
    }
    if (!adopted) {
      const reached = branch.at(-1) ?? before.at(forkHeight)!;
      if (reached.cumulativeWork < before.top.cumulativeWork)
        throw lessWork(
          source.url,
          { height: reached.height, work: reached.cumulativeWork },
          { height: before.top.height, work: before.top.cumulativeWork },
          forkHeight,
        );
    }
    const reorganised = adopted && forkHeight < before.top.height;
    return { ...this.chain!.top, forkHeight: reorganised ? forkHeight : null };
  }
}
