/**
 * The registration proof of work off the event loop (wallet/registration-pow.ts): the worker's registrations pass the
 * daemon's checks on both cores, the event loop keeps turning while it grinds, and an abort stops it.
 */
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { checkRegistration } from '../../protocol/registration.js';
import { computeRegistration, INLINE_POW_BITS } from '../../wallet/registration-pow.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import { forEachCore } from '../helpers/core-impls.js';

await forEachCore(t, async (t, core) => {
  const G = core.generators('UMBRA').G;

  t.test('a registration ground in the worker, and one ground inline, pass the checks', async (t) => {
    for (const bits of [12, INLINE_POW_BITS]) {
      const tx = await computeRegistration(core, G, bigintToBytes32BE(randomScalar()), bits);
      t.doesNotThrow(() => checkRegistration(core, G, tx, bits), `${bits} bits`);
    }
  });

  t.test('the event loop keeps turning while the worker grinds, and an abort stops it', async (t) => {
    const closing = new AbortController();
    // 48 bits: about 2^48 attempts, so it is still grinding when aborted (without the abort the test never ends).
    const grinding = computeRegistration(core, G, bigintToBytes32BE(randomScalar()), 48, closing.signal);
    let settled = false;
    void grinding.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Twenty turns of the event loop while the grind goes on: a grind on this thread would allow none.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
    t.notOk(settled, 'still grinding after twenty turns of the event loop');
    closing.abort();
    const error = await grinding.catch((failure: unknown) => failure);
    t.ok(UmbraError.is(error, WalletErrorCode.RegistrationCancelled), (error as Error).message);
  });

  t.test('an already aborted signal starts nothing', async (t) => {
    const closing = new AbortController();
    closing.abort();
    const error = await computeRegistration(core, G, bigintToBytes32BE(1n), 16, closing.signal).catch((e) => e);
    t.ok(UmbraError.is(error, WalletErrorCode.RegistrationCancelled));
  });
});
