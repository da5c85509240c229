/**
 * Reads the bech32 text of addresses and payment proofs (BIP-173, original checksum, no length limit) and, when it
 * cannot, says what is wrong with it as a person would fix it: the prefix, a character, the length, a typo.
 */
import { bech32 } from '@scure/base';
import { AddressError, AddressErrorCode } from './address-errors.js';

/** After the prefix's `1`: digits and lower-case letters, except 1, b, i and o (they look like others). */
const DATA_CHARACTER = /[02-9ac-hj-np-z]/;
const CHECKSUM_CHARACTERS = 6;

export interface Bech32Kind {
  /** What the text is, in messages: `address`, `payment proof`. */
  noun: string;
  prefixes: readonly string[];
  /** The message for text of another prefix (`seen`, without its `1`). */
  otherPrefix(seen: string): string;
  /** The fewest data bytes any text of this kind carries. */
  minBytes: number;
  /** The data bytes of a prefix whose texts all have one length (plain addresses), else undefined. */
  exactBytes(prefix: string): number | undefined;
}

export interface Bech32Text {
  prefix: string;
  data: Uint8Array;
}

/** The length of a text of `prefix` carrying `bytes` data bytes. */
const textLength = (prefix: string, bytes: number): number =>
  prefix.length + 1 + Math.ceil((bytes * 8) / 5) + CHECKSUM_CHARACTERS;

const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

export const orList = (items: readonly string[]): string =>
  items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

export function readBech32(text: string, kind: Bech32Kind): Bech32Text {
  const invalid = (code: AddressErrorCode, why: string) => new AddressError(code, `not a valid ${kind.noun}: ${why}`);
  if (text === '') throw invalid(AddressErrorCode.Empty, 'it is empty');
  if (text !== text.toLowerCase() && text !== text.toUpperCase())
    throw invalid(AddressErrorCode.MixedCase, 'it mixes upper- and lower-case letters');
  const lower = text.toLowerCase();
  const prefix = kind.prefixes.find((p) => lower.startsWith(`${p}1`));
  if (prefix === undefined) {
    const separator = lower.lastIndexOf('1');
    if (separator < 1)
      throw invalid(
        AddressErrorCode.UnknownPrefix,
        `it does not start with ${orList(kind.prefixes.map((p) => `${p}1`))}`,
      );
    throw new AddressError(AddressErrorCode.UnknownPrefix, kind.otherPrefix(lower.slice(0, separator)));
  }
  const dataStart = prefix.length + 1;
  const bad = [...lower.slice(dataStart)].findIndex((c) => !DATA_CHARACTER.test(c));
  if (bad >= 0) {
    throw invalid(
      AddressErrorCode.BadCharacter,
      `${JSON.stringify(text[dataStart + bad])} (character ${dataStart + bad + 1}) cannot be in ${withArticle(kind.noun)}; after ` +
        `${prefix}1 come only digits and lower-case letters other than 1, b, i and o`,
    );
  }
  let words: number[];
  try {
    ({ words } = bech32.decode(lower as `${string}1${string}`, false));
  } catch {
    throw checksumFailure(text, prefix, kind, invalid);
  }
  try {
    return { prefix, data: bech32.fromWords(words) };
  } catch {
    throw invalid(AddressErrorCode.BadData, 'its data does not end on a whole byte (a character is missing or extra)');
  }
}

/** A text of known prefix and possible characters that bech32 refuses: a length that cannot be right, or a typo. */
function checksumFailure(
  text: string,
  prefix: string,
  kind: Bech32Kind,
  invalid: (code: AddressErrorCode, why: string) => AddressError,
): AddressError {
  const exactBytes = kind.exactBytes(prefix);
  const starting = `${withArticle(kind.noun)} starting ${prefix}1`;
  if (exactBytes !== undefined && text.length !== textLength(prefix, exactBytes)) {
    const expected = textLength(prefix, exactBytes);
    const code = text.length < expected ? AddressErrorCode.TooShort : AddressErrorCode.TooLong;
    const adjective = text.length < expected ? 'short' : 'long';
    return invalid(code, `it is too ${adjective}: ${text.length} characters, ${starting} has ${expected}`);
  }
  const fewest = textLength(prefix, kind.minBytes);
  if (text.length < fewest)
    return invalid(
      AddressErrorCode.TooShort,
      `it is too short: ${text.length} characters, ${starting} has at least ${fewest}`,
    );
  return invalid(AddressErrorCode.BadChecksum, 'it has a typo (its checksum does not match)');
}
