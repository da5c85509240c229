/** The registration grind from the addon (core-native/src/registration/): the whole loop in Rust, one crossing. */
import type { RegistrationPowCore } from '../registration-pow.js';

export function nativeRegistrationPow(addon: Partial<RegistrationPowCore>): RegistrationPowCore {
  // Left undefined when the addon predates it, so that nativeCore reports the addon as out of date.
  return { registrationGrind: addon.registrationGrind as RegistrationPowCore['registrationGrind'] };
}
