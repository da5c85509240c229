/** RC4 with the standard key schedule; the stream state persists across calls (AstroBWTv3 relies on that). */
export class Rc4 {
  private readonly s = new Uint8Array(256);
  private i = 0;
  private j = 0;

  constructor(key: Uint8Array) {
    for (let k = 0; k < 256; k++) this.s[k] = k;
    let j = 0;
    for (let k = 0; k < 256; k++) {
      j = (j + this.s[k]! + key[k % key.length]!) & 0xff;
      [this.s[k], this.s[j]] = [this.s[j]!, this.s[k]!];
    }
  }

  /** XORs the next bytes of the key stream into `data` in place. */
  xor(data: Uint8Array): void {
    const s = this.s;
    for (let k = 0; k < data.length; k++) {
      this.i = (this.i + 1) & 0xff;
      this.j = (this.j + s[this.i]!) & 0xff;
      const t = s[this.i]!;
      s[this.i] = s[this.j]!;
      s[this.j] = t;
      data[k]! ^= s[(s[this.i]! + s[this.j]!) & 0xff]!;
    }
  }
}
