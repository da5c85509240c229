import t from 'tap';
import { describeCore, loadCore } from '../../core-native/ts/index.js';
import { type Addon, nativeCore } from '../../core-native/ts/native.js';
import { nativeMissing } from '../helpers/core-impls.js';

t.test('fallback on request, with the reason in its description', async (t) => {
  const core = await loadCore({ impl: 'fallback' });
  t.equal(core.impl, 'fallback');
  t.match(describeCore(core), /^fallback \(fallback requested\)$/);
});

t.test('auto picks native when the addon loads, else the fallback and says why', async (t) => {
  const core = await loadCore({ impl: 'auto' });
  const missing = nativeMissing();
  if (missing) {
    t.equal(core.impl, 'fallback');
    t.equal(describeCore(core), `fallback (${missing})`);
    await t.rejects(loadCore({ impl: 'native' }), /"native" requested but/);
  } else {
    t.equal(core.impl, 'native');
    t.match(describeCore(core), /^native \(addon .*umbra-core\..*\.node\)$/);
  }
  t.equal((await loadCore()).impl, core.impl, 'auto is the default');
});

t.test('an unknown implementation name is rejected', async (t) => {
  await t.rejects(loadCore({ impl: 'fast' as any }), /unknown crypto implementation "fast"/);
});

t.test('an addon missing functions is reported as out of date', async (t) => {
  t.throws(
    () => nativeCore({ keccak256: () => new Uint8Array(32) } as Partial<Addon> as Addon),
    /out of date \(missing .*sha3_256/,
  );
});
