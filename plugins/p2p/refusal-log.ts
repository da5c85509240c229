/**
 * Inbound connections refused before their handshake (a banned address, or an address or a network over its share of
 * handshakes in progress: handshake-slots.ts), for the debug log. Under a flood a line per refusal would be a flood of
 * its own, and with none an operator, or a measurement, cannot tell why a peer could not connect: so the first refusal
 * after a quiet period is logged as it happens, and those that follow it within SUMMARY_MS are counted and summed up
 * in one line when the next refusal comes after that.
 */
import type { FullShare } from './handshake-slots.js';

export type RefusalReason = 'banned' | FullShare;

const WHY: Record<RefusalReason, string> = {
  banned: 'banned',
  address: 'the address holds its share of connections',
  network: 'its network holds its share of handshakes in progress',
};

/** The period a summary covers, ms. */
export const SUMMARY_MS = 10_000;
/** Distinct addresses counted in a summary, at most. */
const MAX_HOSTS = 1_024;

export class RefusalLog {
  private periodStart: number | undefined;
  private readonly counts = new Map<RefusalReason, number>();
  private readonly hosts = new Set<string>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  note(host: string, reason: RefusalReason): void {
    const now = this.now();
    if (this.periodStart !== undefined && now - this.periodStart < SUMMARY_MS) {
      this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
      if (this.hosts.size < MAX_HOSTS) this.hosts.add(host);
      return;
    }
    if (this.periodStart !== undefined) this.summarise(now - this.periodStart);
    this.periodStart = now;
    this.log(`refused an inbound connection from ${host} before its handshake: ${WHY[reason]}`);
  }

  private summarise(ms: number): void {
    const total = [...this.counts.values()].reduce((sum, count) => sum + count, 0);
    if (total > 0) {
      const reasons = [...this.counts].map(([reason, count]) => `${count} ${WHY[reason]}`).join('; ');
      const from = this.hosts.size < MAX_HOSTS ? `${this.hosts.size}` : `at least ${MAX_HOSTS}`;
      this.log(
        `refused ${total} more inbound connections from ${from} addresses in ${(ms / 1000).toFixed(0)} s: ${reasons}`,
      );
    }
    this.counts.clear();
    this.hosts.clear();
  }
}
