/** Registration checks: each broken rule is a TransactionError with its own code. */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { checkRegistration, leadingZeroBits, makeRegistration, registrationId } from '../../protocol/registration.js';
import { TransactionErrorCode } from '../../protocol/transaction-errors.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');
const secret = core.keccak256(new TextEncoder().encode('registrant'));

t.test('a registration passes, and each broken rule has its code', async (t) => {
  const tx = makeRegistration(core, G, secret, 4);
  t.ok(leadingZeroBits(registrationId(core, tx)) >= 4, 'ground to the asked proof of work');
  checkRegistration(core, G, tx, 4);
  const zeros = leadingZeroBits(registrationId(core, tx));
  t.throws(() => checkRegistration(core, G, tx, zeros + 1), {
    name: 'TransactionError',
    code: TransactionErrorCode.RegistrationPow,
  });
  const s = Uint8Array.from(tx.s);
  s[31]! ^= 1;
  t.throws(() => checkRegistration(core, G, { ...tx, s }, 0), {
    code: TransactionErrorCode.BadSignature,
    message: 'registration signature does not verify',
  });
  t.throws(() => checkRegistration(core, G, { ...tx, key: new Uint8Array(33).fill(0xff) }, 0), {
    code: TransactionErrorCode.NotACurvePoint,
    message: /^registration key is not a curve point: /,
  });
});

t.test('grinding signs with fresh nonces: two registrations of one key differ, and both verify', async (t) => {
  const [a, b] = [makeRegistration(core, G, secret, 8), makeRegistration(core, G, secret, 8)];
  t.not(Buffer.from(a.c).toString('hex'), Buffer.from(b.c).toString('hex'));
  for (const tx of [a, b]) {
    checkRegistration(core, G, tx, 8);
    t.ok(leadingZeroBits(registrationId(core, tx)) >= 8, 'ground to 8 zero bits');
  }
});
