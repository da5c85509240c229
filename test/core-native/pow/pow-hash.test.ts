/** AstroBWTv3 through the Core interface: the same body on both implementations, and their agreement. */
import t from 'tap';
import { forEachCore, nativeMissing, bothCores } from '../../helpers/core-impls.js';

t.test('powHash', async (t) => {
  await forEachCore(t, async (t, core) => {
    const zero = core.powHash(new Uint8Array(48));
    t.equal(zero.length, 32);
    t.same(core.powHash(new Uint8Array(48)), zero, 'deterministic');
    t.not(
      Buffer.from(core.powHash(new Uint8Array(48).fill(1))).toString('hex'),
      Buffer.from(zero).toString('hex'),
      'input-sensitive',
    );
    t.equal(core.powHash(new Uint8Array(0)).length, 32, 'any length works, the empty input too');
    t.equal(
      Buffer.from(zero).toString('hex'),
      '734c93e1ac547f61197ce296c30a7c51b0960e68dcd4418c56af5dadc0e314a8',
      'regression vector: 48 zero bytes under the Umbra op table',
    );
  });
});

t.test('native and fallback agree', { skip: nativeMissing() }, async (t) => {
  const { native, fallback } = await bothCores();
  for (let i = 0; i < 20; i++) {
    const input = Uint8Array.from({ length: 48 }, (_, k) => (k * 31 + i * 17) & 0xff);
    t.same(native.powHash(input), fallback.powHash(input), `input ${i}`);
  }
});
