/** NODE.GetBalanceChanges through a real daemon: what it lists against GetEncryptedBalance read block by block, its cap, bad input. */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { premineKey } from '../../../../protocol/premine.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { MAX_BALANCE_CHANGES } from '../../../../plugins/consensus/rpc/balance-changes-method.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';

t.test('NODE.GetBalanceChanges', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const core = await loadCore();
  const { G } = core.generators('UMBRA');
  const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
  const secret = core.keccak256(new TextEncoder().encode('balance changes: the other miner'));
  const other = encodeAddress('simulator', core.g1Compress(core.g1MulSecret(G, secret)));
  await rpcCall(url, 'NODE.SendRawTransaction', {
    tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, secret, 0))),
  });
  // The premine's balance changes in the blocks it mines (1, 4, 6), not in the other miner's.
  for (const miner of [premine, other, other, premine, other, premine, other]) await mineOneViaRpc(url, miner);
  const top = (await rpcCall(url, 'NODE.GetInfo')).topoheight;
  let id = 0;
  const call = async (params: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: ++id, method: 'NODE.GetBalanceChanges', params })).json;
  const dataAt = async (topoheight: number): Promise<string> =>
    (await rpcCall(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight })).data;

  await t.test('the blocks after which the balance differs from the one before, with the balance there', async (t) => {
    const expected = [];
    for (let topoheight = 1; topoheight <= top; topoheight++)
      if ((await dataAt(topoheight)) !== (await dataAt(topoheight - 1)))
        expected.push({ topoheight, data: await dataAt(topoheight) });
    t.same(
      expected.map((change) => change.topoheight),
      [1, 4, 6],
    );
    t.same((await call({ address: premine, from_topoheight: 0 })).result, {
      changes: expected,
      to_topoheight: top,
      complete: true,
      status: 'OK',
    });
    t.same(
      (await call({ address: premine, from_topoheight: 1, to_topoheight: 5 })).result.changes,
      [expected[1]],
      'a range: changes after its first block, up to its last',
    );
    t.same((await call({ address: premine, from_topoheight: 4, to_topoheight: 4 })).result, {
      changes: [],
      to_topoheight: 4,
      complete: true,
      status: 'OK',
    });
    t.same(
      (await call({ address: other, scid: 'ab'.repeat(32), from_topoheight: 0 })).result.changes,
      [],
      'an asset never held: no changes',
    );
  });

  await t.test('a limit caps the answer, which then covers the range up to its last change', async (t) => {
    const first = (await call({ address: premine, from_topoheight: 0, limit: 2 })).result;
    t.same(
      first.changes.map((change: { topoheight: number }) => change.topoheight),
      [1, 4],
    );
    t.match(first, { to_topoheight: 4, complete: false });
    const rest = (await call({ address: premine, from_topoheight: first.to_topoheight, limit: 2 })).result;
    t.match(rest, { changes: [{ topoheight: 6 }], to_topoheight: top, complete: true });
  });

  await t.test('bad params: -32602 naming the field', async (t) => {
    const refused = async (params: unknown, message: RegExp | string) =>
      t.match((await call(params)).error, { code: -32602, message }, JSON.stringify(params));
    await refused({ address: premine }, /'from_topoheight' must be a non-negative integer/);
    await refused({ address: premine, from_topoheight: -1 }, /'from_topoheight' must be a non-negative integer/);
    await refused({ address: premine, from_topoheight: 1.5 }, /'from_topoheight' must be a non-negative integer/);
    await refused(
      { address: premine, from_topoheight: 5, to_topoheight: 2 },
      "invalid params: 'from_topoheight' (5) must not be above 'to_topoheight' (2)",
    );
    await refused(
      { address: premine, from_topoheight: 0, to_topoheight: top + 1 },
      `invalid params: 'to_topoheight' must be a topoheight on the chain (0 … ${top}, or -1 for the latest), got ${top + 1}`,
    );
    await refused({ address: premine, from_topoheight: 0, to_topoheight: -2 }, /'to_topoheight' must be a topoheight/);
    await refused(
      { address: premine, from_topoheight: 0, limit: 0 },
      `invalid params: 'limit' must be 1 … ${MAX_BALANCE_CHANGES}, got 0`,
    );
    await refused({ address: premine, from_topoheight: 0, limit: MAX_BALANCE_CHANGES + 1 }, /'limit' must be 1 …/);
    await refused({ address: 'umbt1qq', from_topoheight: 0 }, /^invalid params: 'address': not a valid address/);
    await refused({ from_topoheight: 0 }, /'address' must be a string/);
    await refused({ address: premine, scid: 'x', from_topoheight: 0 }, /'scid' must be 64 hexadecimal characters/);
    await refused([], /must be an object/);
  });
});
