/**
 * Start-up (the config, the store, every plugin's set-up) grows V8's young generation, and V8 keeps the pages it grew
 * into for as long as the process idles: ≈ 7 MiB of an idle daemon, still held 45 s later (docs/operations.md
 * § Memory). A young-generation collection alone does not give them back while start-up's allocation rate is recent;
 * one memory-reducing full collection (V8's last-resort flavour, ≈ 27 ms once) does. It needs V8's gc(), which the
 * launcher exposes to the daemon (bin/umbra); without it this does nothing.
 */
type GarbageCollector = (options: { type: 'major'; flavor: 'last-resort' }) => void;

export function releaseStartupGarbage(): void {
  (globalThis as { gc?: GarbageCollector }).gc?.({ type: 'major', flavor: 'last-resort' });
}
