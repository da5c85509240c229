/** XChaCha20 in pure TypeScript (@noble/ciphers). */
import { xchacha20 } from '@noble/ciphers/chacha.js';
import type { CipherCore } from '../cipher.js';

const check = (name: string, value: Uint8Array, length: number): void => {
  if (!(value instanceof Uint8Array)) throw new Error(`${name} must be a Uint8Array`);
  if (value.length !== length) throw new Error(`${name} must be ${length} bytes, got ${value.length}`);
};

export const fallbackCipher: CipherCore = {
  xchacha20(key, nonce, data) {
    check('key', key, 32);
    check('nonce', nonce, 24);
    if (!(data instanceof Uint8Array)) throw new Error('data must be a Uint8Array');
    return xchacha20(key, nonce, data);
  },
};
