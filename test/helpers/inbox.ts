/** Messages a test client received, in order, and a wait for the first one (received or to come) that matches. */
export class Inbox<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  push(item: T): void {
    this.items.push(item);
    for (const wake of this.waiters) wake();
  }

  /** The first item that `matches`; rejects naming `what` (and what came instead) after `timeoutMs`. */
  next(matches: (item: T) => boolean, what: string, timeoutMs: number): Promise<T> {
    const found = this.items.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms (received: ${JSON.stringify(this.items)})`));
      }, timeoutMs);
      const check = (): void => {
        const item = this.items.find(matches);
        if (item === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(item);
      };
      this.waiters.add(check);
    });
  }
}
