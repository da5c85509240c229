/** XChaCha20 from the addon (core-native/src/cipher/). */
import type { CipherCore } from '../cipher.js';

export function nativeCipher(addon: CipherCore): CipherCore {
  return { xchacha20: addon.xchacha20 };
}
