/**
 * Error codes on the wire: a real simulator daemon answers an unregistered account, a second registration of a key, a
 * reused proof nonce and a contract call that would fail with -32098, the message a reference client expects, and the
 * failure's code in `data` — and the wallet's daemon client, talking to it over HTTP, tells them apart by that code.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { encodeAddress } from '../../../protocol/address.js';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { stringifyExactJson } from '../../../protocol/exact-json.js';
import { decodeNonceBalance, type NonceBalance } from '../../../protocol/nonce-balance.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { makeRegistration } from '../../../protocol/registration.js';
import { rpcArgumentToExactJson, type RpcArgument } from '../../../protocol/rpc-arguments.js';
import { buildTransfer } from '../../../protocol/transfer-builder.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { encodeTransaction, TxType } from '../../../protocol/transaction.js';
import { DaemonClient, DaemonClientErrorCode, DaemonRpcError } from '../../../wallet/daemon-client.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../helpers/app.js';

const core = await loadCore();
const gens = core.generators('UMBRA');
const NAME_SERVICE = '0'.repeat(63) + '1';

t.test('application failures carry their code in data over HTTP', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const daemon = new DaemonClient(url);
  const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
  const aliceSecret = core.keccak256(new TextEncoder().encode('alice'));
  const aliceKey = core.g1Compress(core.g1MulSecret(gens.G, aliceSecret));
  const alice = encodeAddress('simulator', aliceKey);
  let id = 0;
  const errorOf = async (method: string, params: unknown) =>
    (await postRpc(url, stringifyExactJson({ jsonrpc: '2.0', id: ++id, method, params }))).json.error;
  const refusal = async (work: Promise<unknown>): Promise<DaemonRpcError> => {
    const error = await work.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    t.type(error, DaemonRpcError, "the daemon client's error for an error answer");
    return error as DaemonRpcError;
  };

  await t.test('an unregistered account', async (t) => {
    t.same(await errorOf('NODE.GetEncryptedBalance', { address: alice }), {
      code: -32098,
      message: 'Account Unregistered',
      data: { code: 'query.account-unregistered' },
    });
    const error = await refusal(daemon.getEncryptedBalance(alice, toHex(NATIVE_SCID)));
    t.equal(error.code, DaemonClientErrorCode.AccountUnregistered, 'the daemon client recognises it by its code');
  });

  await t.test('a second registration of a key while the first is pending', async (t) => {
    const register = () => toHex(encodeTransaction(makeRegistration(core, gens.G, aliceSecret, 0)));
    await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: register() });
    const again = register();
    t.match(await errorOf('NODE.SendRawTransaction', { tx_as_hex: again }), {
      code: -32098,
      message: /^transaction rejected: a registration of this key is already pending/,
      data: { code: 'tx.registration-pending' },
    });
    const error = await refusal(daemon.sendRawTransaction(fromHex(again)));
    t.equal(error.code, DaemonClientErrorCode.RegistrationPending);
    await mineOneViaRpc(url, premine);
  });

  await t.test('a transfer that reuses the proof nonce of a pending one', async (t) => {
    const info = await rpcCall(url, 'NODE.GetInfo');
    const balances = new Map<string, NonceBalance>();
    for (const [address, key] of [
      [premine, premineKey(core, 'simulator')],
      [alice, aliceKey],
    ] as const) {
      const { data } = await rpcCall(url, 'NODE.GetEncryptedBalance', { address, topoheight: info.topoheight });
      balances.set(toHex(key), decodeNonceBalance(fromHex(data)));
    }
    // Two spends of the premine's balance against the same state share the proof nonce.
    const send = (amount: bigint) =>
      toHex(
        buildTransfer(core, gens, {
          type: TxType.Normal,
          secretKey: premineSecret(core, 'simulator'),
          reference: {
            height: BigInt(info.height),
            blid: fromHex(info.top_block_hash, 32),
            roothash: fromHex(info.treehash, 32),
          },
          payloads: [
            {
              scid: NATIVE_SCID,
              ring: [premineKey(core, 'simulator'), aliceKey],
              senderIndex: 0,
              receiverIndex: 1,
              amount,
              burn: 0n,
              fee: 100n,
              args: new Uint8Array(0),
            },
          ],
          balanceAt: (_asset, key) => balances.get(toHex(key)),
          senderBalance: () => 2_000_000_000_000n + 61_500n,
        }).bytes,
      );
    await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: send(1000n) });
    t.match(await errorOf('NODE.SendRawTransaction', { tx_as_hex: send(2000n) }), {
      code: -32098,
      message: /^transaction rejected: it spends the same balance as pending transaction/,
      data: { code: 'tx.nonce-reused' },
    });
  });

  await t.test('a contract call that would fail, with the contract’s error beside the code', async (t) => {
    const scRpc: RpcArgument[] = [
      { name: 'SC_ACTION', datatype: 'U', value: 0n },
      { name: 'SC_ID', datatype: 'H', value: NAME_SERVICE },
      { name: 'entrypoint', datatype: 'S', value: 'TransferOwnership' },
      { name: 'name', datatype: 'S', value: 'nobody' },
      { name: 'newowner', datatype: 'S', value: 'x' },
    ];
    const failure = 'the entry point returned 1 (only Uint64 0 commits)';
    t.same(await errorOf('NODE.GetGasEstimate', { sc_rpc: scRpc.map(rpcArgumentToExactJson) }), {
      code: -32098,
      message: `the call would fail: ${failure}`,
      data: { code: 'query.call-would-fail', failure },
    });
    const error = await refusal(daemon.getGasEstimate({ scRpc, deposits: [] }));
    t.equal(error.code, DaemonClientErrorCode.ContractCallWouldFail);
    t.equal(error.data['failure'], failure, "the contract's error, read from data rather than the message");
  });

  await t.test('other refusals carry theirs, and the wire-level invalid params theirs', async (t) => {
    t.match(await errorOf('NODE.GetBlockHeaderByHash', { hash: 'ab'.repeat(32) }), {
      code: -32098,
      data: { code: 'query.unknown-block' },
    });
    t.match(await errorOf('NODE.GetSC', { scid: 'ab'.repeat(32) }), { data: { code: 'query.unknown-contract' } });
    t.match(await errorOf('NODE.NameToAddress', { name: 'nobody-here' }), {
      data: { code: 'query.name-not-registered' },
    });
    t.match(await errorOf('NODE.GetBlockTemplate', { wallet_address: 'umbt1qq' }), {
      code: -32098,
      message: /^wallet_address could not be parsed: /,
      data: { code: 'address.too-short' },
    });
    t.match(await errorOf('NODE.SubmitBlock', { jobid: 'nope', mbl_blob: '00'.repeat(48) }), {
      data: { code: /^miniblock\./ },
    });
    t.match(await errorOf('NODE.SendRawTransaction', { tx_as_hex: '' }), {
      message: 'tx_as_hex is empty',
      data: { code: 'tx.malformed' },
    });
    t.same(await errorOf('NODE.GetBlock', { hash: 'xyz' }), {
      code: -32602,
      message: `invalid params: 'hash' must be 64 hexadecimal characters, got string "xyz"`,
      data: { code: 'rpc.invalid-params' },
    });
    const unknown = await errorOf('NODE.Nope', {});
    t.same([unknown.code, unknown.data], [-32601, 'NODE.Nope'], "an unknown method's data is still its name");
  });
});
