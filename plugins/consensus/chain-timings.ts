/**
 * The chain's timing observers (ChainService.observeTimings): the chain and the transfer rules report what their work
 * took, and every observer hears of it. With no observer, reporting costs one empty loop.
 */
import type { ChainTimingObserver } from '../../host/services/chain.js';

export class ChainTimings implements Required<ChainTimingObserver> {
  private readonly observers = new Set<ChainTimingObserver>();

  observe(observer: ChainTimingObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  blockApplied(seconds: number): void {
    for (const observer of this.observers) observer.blockApplied?.(seconds);
  }

  transferVerified(ring: number, seconds: number): void {
    for (const observer of this.observers) observer.transferVerified?.(ring, seconds);
  }
}
