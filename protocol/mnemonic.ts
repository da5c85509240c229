/**
 * Seed words (docs/wallet.md § Keys): a 24-word BIP-39 English mnemonic (@scure/bip39) whose 32 bytes of entropy ARE
 * the secret key, big-endian, used mod n (no PBKDF2 seed, no derivation path). Unlike the reference's 25-word
 * Electrum-style lists, this is the widely supported standard; the key ↔ words mapping is still one to one.
 */
import { entropyToMnemonic, generateMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { UmbraError } from '../core-native/ts/errors.js';

export const MNEMONIC_WORDS = 24;
const WORD_SET = new Set(wordlist);

export const MnemonicErrorCode = {
  /** The key to put in words is not 32 bytes. */
  BadSecretKey: 'mnemonic.bad-secret-key',
  /** Not a text, or not 24 words. */
  WrongLength: 'mnemonic.wrong-length',
  UnknownWord: 'mnemonic.unknown-word',
  /** The words are all known but their checksum does not match: a word is wrong or out of place. */
  BadChecksum: 'mnemonic.bad-checksum',
} as const;
export type MnemonicErrorCode = (typeof MnemonicErrorCode)[keyof typeof MnemonicErrorCode];

export class MnemonicError extends UmbraError<MnemonicErrorCode> {
  override readonly name = 'MnemonicError';
}

/** A fresh random 24-word mnemonic (256 bits from the system CSPRNG). */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, 256);
}

/** The 24 words of a 32-byte secret key. */
export function secretKeyToMnemonic(secretKey: Uint8Array): string {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32)
    throw new MnemonicError(MnemonicErrorCode.BadSecretKey, 'a secret key is 32 bytes');
  return entropyToMnemonic(secretKey, wordlist);
}

/** The 32-byte secret key of a mnemonic; clear errors for a wrong word count, unknown words and a bad checksum. */
export function mnemonicToSecretKey(mnemonic: string): Uint8Array {
  if (typeof mnemonic !== 'string')
    throw new MnemonicError(MnemonicErrorCode.WrongLength, 'a mnemonic must be a string of words');
  const words = mnemonic
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length !== MNEMONIC_WORDS)
    throw new MnemonicError(
      MnemonicErrorCode.WrongLength,
      `a mnemonic has ${MNEMONIC_WORDS} words, got ${words.length}`,
    );
  const unknown = words.map((w, i) => [w, i + 1] as const).filter(([w]) => !WORD_SET.has(w));
  if (unknown.length > 0) {
    throw new MnemonicError(
      MnemonicErrorCode.UnknownWord,
      `not in the BIP-39 English word list: ${unknown.map(([w, i]) => `'${w}' (word ${i})`).join(', ')}`,
    );
  }
  try {
    return mnemonicToEntropy(words.join(' '), wordlist);
  } catch {
    throw new MnemonicError(
      MnemonicErrorCode.BadChecksum,
      'mnemonic checksum does not match (a word is wrong or the words are out of order)',
    );
  }
}
