/**
 * The web wallet's lock: the page locks on request and after `minutes` without activity, and only the wallet's
 * password unlocks it. While locked the server answers nothing of the wallet but that it is locked.
 */
export class IdleLock {
  private locked = false;
  private lastActivity = Date.now();
  private timer?: NodeJS.Timeout;

  constructor(
    private minutes: number,
    private readonly changed: () => void,
  ) {}

  get isLocked(): boolean {
    return this.locked;
  }

  get lockMinutes(): number {
    return this.minutes;
  }

  set lockMinutes(minutes: number) {
    this.minutes = minutes;
  }

  /** Checks the idle time every few seconds until `stop`. */
  start(): void {
    this.timer = setInterval(() => {
      if (!this.locked && Date.now() - this.lastActivity >= this.minutes * 60_000) this.lock();
    }, 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The person did something on the page. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  lock(): void {
    if (this.locked) return;
    this.locked = true;
    this.changed();
  }

  unlock(): void {
    this.locked = false;
    this.touch();
    this.changed();
  }
}
