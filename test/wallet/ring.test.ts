/**
 * Ring selection: a ring asked for that is larger than the chain's registered accounts is refused up front, with the
 * numbers; a default the chain cannot fill becomes the largest ring it can.
 */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { encodeAddress } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import { premineKey } from '../../protocol/premine.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeTransaction } from '../../protocol/transaction.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { checkRingFits, chooseRing } from '../../wallet/ring.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import { rpcCall, startTestApp } from '../helpers/app.js';
import { autoMine, mined } from '../helpers/wallet-app.js';

const core = await loadCore();

t.test('a young chain of 5 accounts: rings up to 4 pass, 8 and 16 are refused naming the counts', async (t) => {
  const app = await startTestApp(t, { network: 'simulator' });
  autoMine(t, app.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const { G } = core.generators('UMBRA');
  for (let i = 1n; i <= 4n; i++)
    await rpcCall(app.url, 'NODE.SendRawTransaction', {
      tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(1000n + i), 0))),
    });
  await mined(app.url);
  const daemon = new DaemonClient(app.url);

  for (const ring of [2, 4]) await t.resolves(checkRingFits(daemon, ring), `ring ${ring} fits`);
  for (const [ring, message] of [
    [
      16,
      'ring 16 needs 16 registered accounts; this chain has 5 — use ringsize 4, or leave ringsize out for the largest ring it can fill',
    ],
    [
      8,
      'ring 8 needs 8 registered accounts; this chain has 5 — use ringsize 4, or leave ringsize out for the largest ring it can fill',
    ],
  ] as const) {
    const error = await checkRingFits(daemon, ring).catch((failure: unknown) => failure);
    t.ok(UmbraError.is(error, WalletErrorCode.RingTooLarge), `ring ${ring}: ${WalletErrorCode.RingTooLarge}`);
    t.equal((error as Error).message, message);
  }

  t.same(
    await chooseRing(daemon, undefined, 16),
    { size: 4, lowered: { from: 16, accounts: 5 } },
    'the default lowered',
  );
  t.same(await chooseRing(daemon, undefined, 4), { size: 4 }, 'a default the chain fills');
  t.same(await chooseRing(daemon, undefined, 2), { size: 2 }, 'a ring of 2 is never lowered');
  t.same(await chooseRing(daemon, 4, 16), { size: 4 }, 'a ring asked for that fits');
  const asked = await chooseRing(daemon, 8, 2).catch((failure: unknown) => failure);
  t.ok(UmbraError.is(asked, WalletErrorCode.RingTooLarge), 'a ring asked for is refused, never lowered');
});
