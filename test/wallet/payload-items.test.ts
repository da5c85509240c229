import t from 'tap';
import { payloadItems } from '../../wallet/payload-items.js';
import type { TransferItem } from '../../wallet/transfer-sender.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';

const item = (scid: string): TransferItem => ({ destination: 'x', amount: 1n, scid, burn: 0n, payloadRpc: [] });
const token = 'ab'.repeat(32);

t.test('a request with a native item keeps its items', async (t) => {
  const items = [item(token), item(NATIVE_ASSET)];
  t.equal(payloadItems(items), items);
});

t.test('a request without one gets a native payload of nothing, to a random account, for the fee', async (t) => {
  t.same(payloadItems([item(token)]), [
    item(token),
    { destination: '', amount: 0n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] },
  ]);
  t.same(payloadItems([]), [{ destination: '', amount: 0n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] }]);
});
