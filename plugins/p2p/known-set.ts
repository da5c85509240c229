/**
 * What a peer is known to have (blocks, transactions), so that nothing is announced or sent to it twice. Bounded:
 * the oldest entries are forgotten first, which at worst costs a redundant announcement.
 */
import { toHex } from '../../protocol/bytes.js';

export class KnownSet {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 8192) {}

  has(id: Uint8Array): boolean {
    return this.ids.has(toHex(id));
  }

  add(id: Uint8Array): void {
    const key = toHex(id);
    this.ids.delete(key);
    this.ids.add(key);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
}
