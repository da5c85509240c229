/**
 * Ban scores per remote IP address. Misbehaviour adds points (an outright attack adds enough at once); a score that
 * reaches the threshold bans the address for a while, persisted so that a restart does not lift it. Scores fade by
 * a point a minute, so that an honest peer's occasional slip never adds up to a ban.
 */
import type { Logger } from '../../host/logger.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { StoredTable } from './stored-table.js';

export const BAN_THRESHOLD = 100;

/** Points per kind of misbehaviour. */
export const PENALTY = {
  /** Bytes that are not the protocol: a bad frame, an oversized frame, a malformed message. */
  malformed: BAN_THRESHOLD,
  /** A block that fails validation, or data that does not hash to what was asked for. */
  invalidData: BAN_THRESHOLD,
  /** A well-formed message at the wrong time (before the handshake, a second handshake, a request over its limit). */
  misuse: 25,
  /** A message over the peer's budget (peer-budget.ts), dropped: a steady flood adds up to a ban in a few messages. */
  overBudget: 10,
  /** A sync request left unanswered until it timed out: slow links exist, so it takes several to ban. */
  stalled: 20,
} as const;

const FADE_MS_PER_POINT = 60_000;
/**
 * Addresses with a score kept at once (an attacker may come from many addresses): past it, scores that have faded
 * are forgotten, then the least recently raised.
 */
export const MAX_SCORED_HOSTS = 4096;

export class Bans {
  private readonly scores = new Map<string, { points: number; at: number }>();
  private readonly until = new Map<string, number>();
  private readonly table: StoredTable<number>;

  constructor(
    store: KeyValueStore,
    logger: Logger,
    private readonly banMs: number,
  ) {
    this.table = new StoredTable(store, 'b', logger);
  }

  async load(): Promise<void> {
    for (const [host, until] of await this.table.load()) this.until.set(host, until);
  }

  /** Adds points to an address; returns true when this bans it. */
  penalise(host: string, points: number): boolean {
    const now = Date.now();
    const previous = this.scores.get(host);
    const score = (previous ? fadedScore(previous, now) : 0) + points;
    if (score < BAN_THRESHOLD) {
      // Deleted first so that the map's order is that of the last raise.
      this.scores.delete(host);
      this.scores.set(host, { points: score, at: now });
      if (this.scores.size > MAX_SCORED_HOSTS) this.forgetScores(now);
      return false;
    }
    this.scores.delete(host);
    this.until.set(host, now + this.banMs);
    this.table.put(host, now + this.banMs);
    return true;
  }

  private forgetScores(now: number): void {
    for (const [host, score] of this.scores) if (fadedScore(score, now) === 0) this.scores.delete(host);
    for (const host of this.scores.keys()) {
      if (this.scores.size <= MAX_SCORED_HOSTS) break;
      this.scores.delete(host);
    }
  }

  isBanned(host: string): boolean {
    const until = this.until.get(host);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(host);
    this.table.delete(host);
    return false;
  }

  flush(): Promise<void> {
    return this.table.flush();
  }
}

function fadedScore(score: { points: number; at: number }, now: number): number {
  return Math.max(0, score.points - Math.floor((now - score.at) / FADE_MS_PER_POINT));
}
