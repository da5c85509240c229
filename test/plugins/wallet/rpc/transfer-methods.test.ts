/**
 * Strict requests for the money-moving methods, end to end through the wallet RPC against an in-process simulator
 * daemon: a misspelt key on `transfer`, its items or `scinvoke` is -32602 with the closest known key and sends
 * nothing; an item that names neither amount nor burn is refused; amounts beyond 2^53 are read exactly.
 */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';
import { autoMine, mined, startWalletApp, testWallet } from '../../../helpers/wallet-app.js';

const core = await loadCore();

let nextId = 1;
/** Posts a request whose params are JSON text, so that they may hold integers a JS number cannot. */
async function rpcText(url: string, method: string, paramsText: string): Promise<any> {
  return (await postRpc(url, `{"jsonrpc":"2.0","id":${nextId++},"method":"${method}","params":${paramsText}}`)).json;
}
const rpc = (url: string, method: string, params?: unknown): Promise<any> =>
  rpcText(url, method, JSON.stringify(params ?? {}));

t.test('strict transfer and scinvoke requests', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  autoMine(t, daemon.url, premineAddress);
  const premine = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url));
  const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const aliceUrl = await startWalletApp(t, alice);
  await alice.registration.ensure();
  await mined(daemon.url);
  const balanceOf = async (url: string): Promise<number> => (await rpc(url, 'GetBalance')).result.balance;

  await t.test('a misspelt key is refused with the closest known one, and nothing is sent', async (t) => {
    const before = { premine: await balanceOf(premine), height: (await rpcCall(daemon.url, 'NODE.GetInfo')).height };
    const refusals: [string, unknown, string][] = [
      [
        'transfer',
        { transfers: [{ destination: alice.address, ammount: 5000 }] },
        "unknown field 'transfers[0].ammount' (did you mean 'amount'?)",
      ],
      ['transfer', { destination: alice.address, ammount: 5000 }, "unknown field 'ammount' (did you mean 'amount'?)"],
      [
        'transfer',
        { transfers: [{ destination: alice.address, amount: 5000 }], ringsise: 2 },
        "unknown field 'ringsise' (did you mean 'ringsize'?)",
      ],
      [
        'transfer',
        { transfers: [{ destination: alice.address, amount: 5000 }], colour: 'blue' },
        "unknown field 'colour' (known fields: transfers, destination, amount, scid, sc, sc_rpc, ringsize, fees, force)",
      ],
      [
        'scinvoke',
        { scid: '0'.repeat(63) + '1', sc_dero_depost: 5000 },
        "unknown field 'sc_dero_depost' (did you mean 'sc_dero_deposit'?)",
      ],
      ['transfer', { transfers: [{ destination: alice.address }] }, "'transfers[0]' needs 'amount' or 'burn'"],
      ['transfer', { destination: alice.address }, "'destination' needs 'amount'"],
    ];
    for (const [method, params, message] of refusals)
      t.same(
        (await rpc(premine, method, params)).error,
        { code: -32602, message: `invalid params: ${message}`, data: { code: 'rpc.invalid-params' } },
        message,
      );
    t.same((await rpcCall(daemon.url, 'NODE.GetTxPool')).txs, [], 'nothing reached the pool');
    t.equal((await rpcCall(daemon.url, 'NODE.GetInfo')).height, before.height, 'no block was mined');
    t.equal(await balanceOf(premine), before.premine, 'no fee was charged');
    t.equal(await balanceOf(aliceUrl), 0, 'alice received nothing');
  });

  await t.test('known keys still match whatever their case', async (t) => {
    const sent = (
      await rpc(premine, 'transfer', { Transfers: [{ Destination: alice.address, AMOUNT: 7 }], ringSize: 2 })
    ).result;
    t.match(sent, { txid: /^[0-9a-f]{64}$/ });
    await mined(daemon.url);
    t.equal(await balanceOf(aliceUrl), 7);
  });

  await t.test('amounts beyond 2^53 are read exactly, not rounded', async (t) => {
    // Both amounts are more than the wallet has; the refusal states the exact sum needed (amount + fee), in coins.
    const need = async (amount: string): Promise<bigint> => {
      const { error } = await rpcText(
        premine,
        'transfer',
        `{"transfers":[{"destination":"${alice.address}","amount":${amount}}],"ringsize":2}`,
      );
      t.equal(error.code, -32098);
      const [, coins, decimals] = /need (\d+)\.(\d{5}) UMB/.exec(error.message)!;
      return BigInt(`${coins}${decimals}`);
    };
    const low = await need('9007199254740993');
    const high = await need('9007199254740995');
    t.equal(high - low, 2n, 'amounts 2^53 + 1 and 2^53 + 3 stay two apart (rounded they would be four)');
    t.ok(low > 9007199254740993n, 'the need is the exact amount plus the fee');
    t.same(
      (await rpcText(premine, 'transfer', `{"destination":"${alice.address}","amount":18446744073709551616}`)).error,
      {
        code: -32602,
        message:
          "invalid params: 'amount' must be a non-negative integer up to 18446744073709551615, got number 18446744073709551616",
        data: { code: 'rpc.invalid-params' },
      },
      'beyond uint64 is refused',
    );
    t.same((await rpcCall(daemon.url, 'NODE.GetTxPool')).txs, [], 'nothing reached the pool');
  });
});
