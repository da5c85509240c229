/**
 * Why an address (or a payment proof) cannot be read, in Umbra's terms: what is wrong with the text a person typed or
 * pasted, not the bech32 library's wording.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export enum AddressErrorCode {
  Empty = 'address.empty',
  /** Upper- and lower-case letters mixed (bech32 text is one or the other). */
  MixedCase = 'address.mixed-case',
  /** The text does not start with a known prefix and its `1` separator. */
  UnknownPrefix = 'address.unknown-prefix',
  /** A character that bech32 data never holds (1, b, i, o, punctuation, spaces, …). */
  BadCharacter = 'address.bad-character',
  TooShort = 'address.too-short',
  TooLong = 'address.too-long',
  /** The characters are all possible but the checksum does not match: a typo. */
  BadChecksum = 'address.bad-checksum',
  /** The data does not end on a whole byte, or holds a version this node does not know. */
  BadData = 'address.bad-data',
  /** A valid address of another network than the one asked for. */
  WrongNetwork = 'address.wrong-network',
  /** The key is not a point of the curve. */
  NotACurvePoint = 'address.not-a-curve-point',
  /** An integrated address without arguments, or with arguments that do not decode. */
  BadIntegratedPayload = 'address.bad-integrated-payload',
  /** An address or proof being built from bytes of the wrong length. */
  BadKeyLength = 'address.bad-key-length',
  /** A payment proof with a bad version, length or arguments. */
  BadPaymentProof = 'address.bad-payment-proof',
}

export class AddressError extends UmbraError<AddressErrorCode> {
  override readonly name = 'AddressError';
}
