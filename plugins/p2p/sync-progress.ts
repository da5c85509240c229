/**
 * How far a chain sync has come: a log line every few seconds while the node is behind its peers
 * (`sync: 1234 / 5000 blocks (24.7 %), 85 blocks/s, ETA 44 s`), a last line once it has caught up, and the same
 * figures for NODE.GetPeers. The rate is the blocks added since the sync began over the time it took.
 */
import { durationText } from '../../host/duration-text.js';

/** A running sync's figures. */
export interface SyncSnapshot {
  /** This node's height. */
  height: number;
  /** The height of the peer it syncs from. */
  target: number;
  /** height / target, in percent, rounded down to one decimal (99.99 % is not yet 100.0 %). */
  percent: number;
  blocksPerSecond: number;
  /** Seconds left at the rate so far; undefined before any block was added. */
  etaSeconds: number | undefined;
}

interface Run {
  startHeight: number;
  startedAt: number;
  lastLogged: number;
  height: number;
  target: number;
}

export class SyncProgress {
  private run: Run | undefined;

  constructor(
    private readonly log: (line: string) => void,
    /** At most one progress line per this many ms. */
    private readonly everyMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A sync starts at `height` towards a peer at `target`. */
  begin(height: number, target: number): void {
    const now = this.now();
    this.run = { startHeight: height, startedAt: now, lastLogged: now, height, target };
  }

  /** Blocks were added: logs a progress line when the last one is `everyMs` old and the node is still behind. */
  advance(height: number, target: number): void {
    const run = this.run;
    if (!run) return;
    run.height = height;
    run.target = target;
    const now = this.now();
    if (now - run.lastLogged < this.everyMs || height >= target) return;
    run.lastLogged = now;
    const figures = this.snapshot()!;
    const eta = figures.etaSeconds === undefined ? 'ETA unknown' : `ETA ${durationText(figures.etaSeconds)}`;
    this.log(
      `sync: ${height} / ${target} blocks (${figures.percent.toFixed(1)} %), ${figures.blocksPerSecond.toFixed(0)} blocks/s, ${eta}`,
    );
  }

  /** The sync ended (done or failed): says so once the node has reached the height its peers report. */
  end(height: number, bestPeerHeight: number): void {
    if (!this.run) return;
    this.run = undefined;
    if (height >= bestPeerHeight) this.log(`sync: caught up at height ${height}`);
  }

  /** The figures of the sync running now, if one is. */
  snapshot(): SyncSnapshot | undefined {
    const run = this.run;
    if (!run) return undefined;
    const seconds = (this.now() - run.startedAt) / 1000;
    const added = Math.max(0, run.height - run.startHeight);
    const blocksPerSecond = seconds > 0 ? added / seconds : 0;
    const left = Math.max(0, run.target - run.height);
    return {
      height: run.height,
      target: run.target,
      percent: run.target > 0 ? Math.min(100, Math.floor((1000 * run.height) / run.target) / 10) : 100,
      blocksPerSecond,
      etaSeconds: blocksPerSecond > 0 ? left / blocksPerSecond : undefined,
    };
  }
}
