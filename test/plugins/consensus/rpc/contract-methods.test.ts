/** NODE.GetSC, NODE.NameToAddress and NODE.GetGasEstimate through a real daemon (the name service is in genesis). */
import t from 'tap';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { loadCore } from '../../../../core-native/ts/index.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { premineKey } from '../../../../protocol/premine.js';
import { postRpc, startTestApp } from '../../../helpers/app.js';
import { account, sampleContract } from '../../../helpers/dvm.js';

const NAME_SERVICE = '0'.repeat(63) + '1';

t.test('contract queries', async (t) => {
  const { url } = await startTestApp(t, { network: 'testnet' });
  const core = await loadCore({ impl: 'fallback' });
  const premine = premineKey(core, 'testnet');
  const premineAddress = encodeAddress('testnet', premine);
  let id = 0;
  const call = async (method: string, params?: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: ++id, method, params })).json;

  await t.test('GetSC: the name service installed at genesis', async (t) => {
    const r = (
      await call('NODE.GetSC', {
        scid: NAME_SERVICE,
        code: true,
        variables: true,
        keysuint64: [0, 7],
        keysstring: ['nobody'],
      })
    ).result;
    t.equal(r.status, 'OK');
    t.equal(r.code, sampleContract('nameservice'));
    t.equal(r.uint64keys['0'], Buffer.from(premine).toString('hex'), 'the privileged key');
    t.same(r.valuesuint64, [Buffer.from(premine).toString('hex'), 'NOT AVAILABLE err: key not found']);
    t.same(r.valuesstring, ['NOT AVAILABLE err: key not found']);
    t.same(r.stringkeys, {}, 'the code is not a variable');
    t.equal(r.balance, 0);
    t.same(r.balances, {});
    const atGenesis = (await call('getsc', { scid: NAME_SERVICE, code: false, topoheight: 0 })).result;
    t.equal(atGenesis.code, '');
  });

  await t.test('GetSC errors', async (t) => {
    t.match((await call('NODE.GetSC', { scid: 'ab'.repeat(32) })).error, { code: -32098, message: /no contract abab/ });
    t.match((await call('NODE.GetSC', { scid: 'xyz' })).error, {
      code: -32602,
      message: /'scid' must be 64 hexadecimal characters/,
    });
    t.match((await call('NODE.GetSC', { scid: NAME_SERVICE, topoheight: 99 })).error, {
      code: -32098,
      message: /topoheight 99 is not on the chain/,
    });
    t.match((await call('NODE.GetSC', { scid: NAME_SERVICE, keysuint64: ['a'] })).error, {
      code: -32602,
      message: /keysuint64\[0\]/,
    });
  });

  await t.test('NameToAddress', async (t) => {
    t.match((await call('NODE.NameToAddress', { name: 'nobody', topoheight: -1 })).error, {
      code: -32098,
      message: 'name "nobody" is not registered',
    });
    t.match((await call('NODE.NameToAddress', {})).error, { code: -32602, message: /'name' must be a string/ });
  });

  await t.test('GetGasEstimate: install and call', async (t) => {
    const install = (await call('NODE.GetGasEstimate', { sc: sampleContract('lottery'), signer: premineAddress }))
      .result;
    t.equal(install.status, 'OK');
    // Initialize: 8 lines, EXISTS, VERSION, 5 STOREs, SIGNER.
    t.equal(install.gascompute, 8 * 5000 + 5000 + 1000 + 5 * 10000 + 5000);
    t.ok(install.gasstorage > sampleContract('lottery').length, 'the code counts towards storage gas');
    const base64 = (await call('NODE.GetGasEstimate', { sc: Buffer.from(sampleContract('asset')).toString('base64') }))
      .result;
    t.equal(base64.gascompute, 5000, 'base64 code is accepted (InitializePrivate: one line)');

    const register = (
      await call('NODE.GetGasEstimate', {
        sc_rpc: [
          { name: 'SC_ACTION', datatype: 'U', value: 0 },
          { name: 'SC_ID', datatype: 'H', value: NAME_SERVICE },
          { name: 'entrypoint', datatype: 'S', value: 'Register' },
          { name: 'name', datatype: 'S', value: 'alice-wonder' },
        ],
        signer: account(core, 1).address,
      })
    ).result;
    // Register: lines 10, 20, 30, 40, 80, 100 = 6 lines; SIGNER twice (10, 80), EXISTS, STRLEN twice, STORE;
    // operators: == (10), >= (30), >= (40).
    t.equal(register.gascompute, 6 * 5000 + 2 * 5000 + 5000 + 2 * 20000 + 10000 + 3 * 800);
  });

  await t.test('GetGasEstimate errors', async (t) => {
    const base = [
      { name: 'SC_ACTION', datatype: 'U', value: 0 },
      { name: 'SC_ID', datatype: 'H', value: NAME_SERVICE },
    ];
    const failing = await call('NODE.GetGasEstimate', {
      sc_rpc: [
        ...base,
        { name: 'entrypoint', datatype: 'S', value: 'TransferOwnership' },
        { name: 'name', datatype: 'S', value: 'x' },
        { name: 'newowner', datatype: 'S', value: 'y' },
      ],
    });
    t.match(failing.error, { code: -32098, message: /the call would fail: the entry point returned 1/ });
    t.match((await call('NODE.GetGasEstimate', { sc_rpc: base })).error, {
      code: -32602,
      message: /a call needs SC_ID \(datatype H\) and entrypoint \(datatype S\)/,
    });
    t.match((await call('NODE.GetGasEstimate', { sc: 'Function F(' })).error, {
      code: -32098,
      message: /does not compile/,
    });
    t.match((await call('NODE.GetGasEstimate', { sc: 'Function F() Uint64\n10 RETURN 0\nEnd Function' })).error, {
      code: -32098,
      message: /no Initialize/,
    });
    t.match((await call('NODE.GetGasEstimate', { sc_rpc: [{ name: 'x', datatype: 'Z', value: 1 }] })).error, {
      code: -32602,
      message: /unknown datatype/,
    });
    t.match(
      (await call('NODE.GetGasEstimate', { sc_rpc: [...base, { name: 'entrypoint', datatype: 'S', value: 'Nope' }] }))
        .error,
      {
        code: -32098,
        message: `contract ${NAME_SERVICE} has no function Nope (entry points: Initialize, Register, TransferOwnership)`,
      },
      'refused as the pool refuses it, not as a call that would fail',
    );
    const payer = 'Function Initialize() Uint64\n10 SEND_COIN_TO_ADDRESS(SIGNER(), 5)\n20 RETURN 0\nEnd Function\n';
    const stranger = core.g1Compress(core.g1MulSecret(core.generators('UMBRA').G, bigintToBytes32BE(7n)));
    t.match(
      (
        await call('NODE.GetGasEstimate', {
          sc: payer,
          transfers: [{ burn: 5 }],
          signer: encodeAddress('testnet', stranger),
        })
      ).error,
      {
        code: -32098,
        message: `the call would fail: the contract pays ${Buffer.from(stranger).toString('hex')}, which is not a registered account`,
      },
    );
    t.equal(
      (await call('NODE.GetGasEstimate', { sc: payer, transfers: [{ burn: 5 }], signer: premineAddress })).result
        ?.status,
      'OK',
      'a registered signer can be paid',
    );
    t.match((await call('NODE.GetGasEstimate', { signer: 'umb1nope', sc: sampleContract('asset') })).error, {
      code: -32602,
      message: /'signer'/,
    });
    t.match(
      (
        await call('NODE.GetGasEstimate', {
          sc_rpc: [
            ...base.slice(0, 1),
            { name: 'SC_ID', datatype: 'H', value: 'cd'.repeat(32) },
            { name: 'entrypoint', datatype: 'S', value: 'F' },
          ],
        })
      ).error,
      { code: -32098, message: /^there is no contract cdcd/ },
    );
  });
});
