/**
 * RANDOM() (docs/contracts.md § Built-in functions, RANDOM): a deterministic stream per call. key = Keccak-256(SCID ‖ BLID ‖ TXID); draw number
 * `pos` (from 1) is the first 8 bytes, big-endian, of an HSalsa20 core over key and the 16-byte block
 * `pos` (big-endian) ‖ 8 zero bytes — a variant that uses that same block as its four "constant" words.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { CallContext } from '../../host/services/contract-vm.js';

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

/** 20 Salsa20 rounds over the state, without the final addition; returns words 0,5,10,15,6,7,8,9. */
function hsalsaVariant(key: Uint8Array, block: Uint8Array): Uint8Array {
  const view = new DataView(block.buffer, block.byteOffset, 16);
  const k = new DataView(key.buffer, key.byteOffset, 32);
  const c = [0, 1, 2, 3].map((i) => view.getUint32(4 * i, true));
  const x = new Uint32Array(16);
  x[0] = c[0]!;
  x[5] = c[1]!;
  x[10] = c[2]!;
  x[15] = c[3]!;
  for (let i = 0; i < 4; i++) {
    x[1 + i] = k.getUint32(4 * i, true);
    x[11 + i] = k.getUint32(16 + 4 * i, true);
    x[6 + i] = view.getUint32(4 * i, true);
  }
  const quarter = (a: number, b: number, c2: number, d: number): void => {
    x[b]! ^= rotl((x[a]! + x[d]!) | 0, 7);
    x[c2]! ^= rotl((x[b]! + x[a]!) | 0, 9);
    x[d]! ^= rotl((x[c2]! + x[b]!) | 0, 13);
    x[a]! ^= rotl((x[d]! + x[c2]!) | 0, 18);
  };
  for (let round = 0; round < 10; round++) {
    quarter(0, 4, 8, 12);
    quarter(5, 9, 13, 1);
    quarter(10, 14, 2, 6);
    quarter(15, 3, 7, 11);
    quarter(0, 1, 2, 3);
    quarter(5, 6, 7, 4);
    quarter(10, 11, 8, 9);
    quarter(15, 12, 13, 14);
  }
  const out = new Uint8Array(32);
  const o = new DataView(out.buffer);
  [0, 5, 10, 15, 6, 7, 8, 9].forEach((word, i) => o.setUint32(4 * i, x[word]!, true));
  return out;
}

export class ContractRandom {
  private readonly key: Uint8Array;
  private position = 1n;

  constructor(core: Core, context: Pick<CallContext, 'scid' | 'blid' | 'txid'>) {
    this.key = core.keccak256(Buffer.from(context.scid + context.blid + context.txid, 'latin1'));
  }

  /** The raw 32-byte output for the next position (exposed for the published test vectors). */
  nextBlock(): Uint8Array {
    const block = new Uint8Array(16);
    new DataView(block.buffer).setBigUint64(0, this.position, false);
    this.position++;
    return hsalsaVariant(this.key, block);
  }

  next(): bigint {
    const out = this.nextBlock();
    return new DataView(out.buffer).getBigUint64(0, false);
  }
}
