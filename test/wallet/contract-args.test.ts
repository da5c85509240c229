import t from 'tap';
import { callArgs, depositItems, installArgs } from '../../wallet/contract-args.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';

const scid = 'cd'.repeat(32);

t.test('install and call arguments: the reserved names first, a caller’s reserved name replaced', async (t) => {
  t.same(installArgs('code', [{ name: 'SC_ACTION', datatype: 'U', value: 5n }]), [
    { name: 'SC_ACTION', datatype: 'U', value: 1n },
    { name: 'SC_CODE', datatype: 'S', value: 'code' },
  ]);
  t.same(callArgs(scid, [{ name: 'entrypoint', datatype: 'S', value: 'Go' }]), [
    { name: 'SC_ACTION', datatype: 'U', value: 0n },
    { name: 'SC_ID', datatype: 'H', value: scid },
    { name: 'entrypoint', datatype: 'S', value: 'Go' },
  ]);
});

t.test('deposits are burns to random accounts; a zero deposit adds nothing', async (t) => {
  t.same(depositItems(scid, 0n, 0n), []);
  t.same(depositItems(scid, 5n, 7n), [
    { destination: '', amount: 0n, scid: NATIVE_ASSET, burn: 5n, payloadRpc: [] },
    { destination: '', amount: 0n, scid, burn: 7n, payloadRpc: [] },
  ]);
  t.same(
    depositItems(scid, 0n, 7n).map((item) => item.scid),
    [scid],
  );
});
