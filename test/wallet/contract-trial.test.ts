/**
 * The trial run of a contract transaction against a real daemon: the signer and the deposits reach the contract
 * (deposits summed per asset, exact beyond 2^53), a failing install or call is a ContractWouldFailError with the
 * contract's error, and a daemon that cannot run it is an error, never a silent pass.
 */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { premineKey } from '../../protocol/premine.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { callArgs, installArgs } from '../../wallet/contract-args.js';
import { ContractWouldFailError, tryContract } from '../../wallet/contract-trial.js';
import { DaemonClient, DaemonClientErrorCode } from '../../wallet/daemon-client.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import { startTestApp } from '../helpers/app.js';

const core = await loadCore();
const NAME_SERVICE = '0'.repeat(63) + '1';
/** Commits only for a known signer depositing exactly 2^53 + 1. */
const PICKY = `Function Initialize() Uint64
10 IF SIGNER() == "" THEN GOTO 100
20 IF COINVALUE() != 9007199254740993 THEN GOTO 100
30 RETURN 0
100 RETURN 1
End Function
`;
const deposit = (burn: bigint) => ({ scid: NATIVE_ASSET, burn });
/** A fee above any storage gas these trials use. */
const fee = 20_000n;
/** What a trial throws (undefined when it passes). */
const thrownBy = (trial: Promise<unknown>): Promise<unknown> =>
  trial.then(
    () => undefined,
    (error: unknown) => error,
  );

t.test('trial runs against a real daemon', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const daemon = new DaemonClient(url);
  const signer = encodeAddress('simulator', premineKey(core, 'simulator'));

  await t.test('the signer and the summed deposits reach the contract', async (t) => {
    const half = 4503599627370496n;
    await t.resolves(
      tryContract(daemon, { scRpc: installArgs(PICKY), transfers: [deposit(half), deposit(half + 1n)], signer, fee }),
    );
    const anonymous = await tryContract(daemon, {
      scRpc: installArgs(PICKY),
      transfers: [deposit(2n * half + 1n)],
      fee,
    }).catch((error: unknown) => error);
    t.ok(anonymous instanceof ContractWouldFailError);
    t.match(anonymous, {
      code: WalletErrorCode.ContractCallWouldFail,
      install: true,
      failure: 'the entry point returned 1 (only Uint64 0 commits)',
      message:
        'the contract install would fail: the entry point returned 1 (only Uint64 0 commits); nothing was sent (set "force": true to send it anyway)',
    });
    t.match(await thrownBy(tryContract(daemon, { scRpc: installArgs(PICKY), transfers: [deposit(1n)], signer, fee })), {
      failure: /returned 1/,
    });
  });

  await t.test('a call', async (t) => {
    const transferOwnership = callArgs(NAME_SERVICE, [
      { name: 'entrypoint', datatype: 'S', value: 'TransferOwnership' },
      { name: 'name', datatype: 'S', value: 'nobody' },
      { name: 'newowner', datatype: 'S', value: signer },
    ]);
    t.match(await thrownBy(tryContract(daemon, { scRpc: transferOwnership, transfers: [], signer, fee })), {
      install: false,
      message: /^the contract call would fail: the entry point returned 1 /,
    });
    t.match(
      await thrownBy(
        tryContract(daemon, {
          scRpc: callArgs(NAME_SERVICE, [{ name: 'entrypoint', datatype: 'S', value: 'Nope' }]),
          transfers: [],
          fee,
        }),
      ),
      {
        code: WalletErrorCode.DaemonRefused,
        message: `the daemon refused the trial run: contract ${NAME_SERVICE} has no function Nope (entry points: Initialize, Register, TransferOwnership)`,
      },
    );
  });

  await t.test('the fee is the storage-gas limit, as in the block', async (t) => {
    t.match(await thrownBy(tryContract(daemon, { scRpc: installArgs(PICKY), transfers: [], signer, fee: 100n })), {
      install: true,
      failure: /^out of storage gas \(limit 100, /,
    });
  });

  await t.test('arguments without a readable action are left to the pool', async (t) => {
    await t.resolves(
      tryContract(daemon, { scRpc: [{ name: 'SC_ACTION', datatype: 'U', value: 7n }], transfers: [], fee }),
    );
    await t.resolves(
      tryContract(daemon, { scRpc: [{ name: 'SC_ACTION', datatype: 'U', value: 0n }], transfers: [], fee }),
    );
  });
});

t.test('a daemon that cannot run the trial', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator', plugins: ['consensus', 'mempool', 'mining'] });
  t.match(await thrownBy(tryContract(new DaemonClient(url), { scRpc: installArgs(PICKY), transfers: [], fee })), {
    code: WalletErrorCode.DaemonRefused,
    message: 'the daemon refused the trial run: this node runs without the contract VM (add the dvm plugin)',
  });
  const offline = await tryContract(new DaemonClient('127.0.0.1:9'), {
    scRpc: installArgs(PICKY),
    transfers: [],
    fee,
  }).catch((error: unknown) => error);
  t.ok(UmbraError.is(offline, DaemonClientErrorCode.Unavailable), 'unreachable: the usual daemon error');
});
