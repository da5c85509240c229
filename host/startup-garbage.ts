/**
 * Start-up (the config, the store, every plugin's set-up) fills V8's young generation with garbage, and V8 keeps the
 * pages it grew into for as long as the process idles: ≈ 7 MiB of an idle daemon, still held a minute later
 * (docs/operations.md § Memory). One young-generation collection once start-up is done finds almost nothing alive,
 * and V8 shrinks the young generation back. It needs V8's gc(), which the launcher exposes to the daemon
 * (bin/umbra); without it this does nothing.
 */
type GarbageCollector = (options: { type: 'major'; flavor: 'last-resort' }) => void;

export function releaseStartupGarbage(): void {
  (globalThis as { gc?: GarbageCollector }).gc?.({ type: 'major', flavor: 'last-resort' });
}
