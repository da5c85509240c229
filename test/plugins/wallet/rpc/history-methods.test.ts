/**
 * GetTransfers and GetTransferbyTXID with contract outcomes, against an in-process simulator daemon: the outgoing
 * entry of a contract call that failed carries the daemon's `sc_outcome` once mined (from the history sync or from
 * confirm), one that committed says so, and both survive the wallet file's form of the history.
 */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { parseExactJson, stringifyExactJson } from '../../../../protocol/exact-json.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { callArgs, installArgs } from '../../../../wallet/contract-args.js';
import { DaemonClient } from '../../../../wallet/daemon-client.js';
import { TransferHistory } from '../../../../wallet/transfer-history.js';
import { NATIVE_ASSET } from '../../../../wallet/wallet-constants.js';
import { rpcCall, startTestApp } from '../../../helpers/app.js';
import { autoMine, mined, startWalletApp, testWallet, transfersOf, walletRpc } from '../../../helpers/wallet-app.js';
import { VAULT_CONTRACT } from '../../../helpers/vault-contract.js';

const core = await loadCore();

t.test("a contract call's outgoing entry carries what the call did", async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const wallet = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
  const url = await startWalletApp(t, wallet);
  // A second registered account, for the rings.
  const { G } = core.generators('UMBRA');
  const registration = makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0);
  await rpcCall(daemon.url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(encodeTransaction(registration)) });
  await mined(daemon.url);

  // force: sent as asked, without a trial run that would refuse the failing call.
  const install = await wallet.transfers.send({
    transfers: [],
    ringSize: 2,
    scRpc: installArgs(VAULT_CONTRACT),
    force: true,
  });
  await mined(daemon.url);
  const withdraw = await wallet.transfers.send({
    transfers: [],
    ringSize: 2,
    scRpc: callArgs(install, [{ name: 'entrypoint', datatype: 'S', value: 'Withdraw' }]),
    force: true,
  });
  t.notOk(
    wallet.history.entries(NATIVE_ASSET).find((entry) => entry.txid === withdraw)!.sc_outcome,
    'not known before it is mined',
  );
  await mined(daemon.url);
  await wallet.sync();
  t.match(
    wallet.history.entries(NATIVE_ASSET).find((entry) => entry.txid === withdraw)!.sc_outcome,
    { status: 'failed' },
    'the history sync fills it from the block it reads',
  );

  const { entry } = await walletRpc(url, 'GetTransferbyTXID', { txid: withdraw });
  t.match(
    entry,
    { txid: withdraw, incoming: false, sc_outcome: { status: 'failed', message: /panic.*line 20/i, line: 20 } },
    'the failed call says why and where',
  );
  t.type(entry.sc_outcome.gascompute, 'number');
  const out = await transfersOf(url, { out: true });
  t.match(
    out.find((e) => e.txid === install),
    { sc_outcome: { status: 'committed', code: 0 } },
    'GetTransfers: the install committed',
  );
  t.same(out.find((e) => e.txid === withdraw)!.sc_outcome, entry.sc_outcome, 'GetTransfers: the same outcome');

  // An entry the sync cannot see (e.g. another asset's send) gets it from confirm, which asks NODE.GetTransaction.
  const unconfirmed = new TransferHistory();
  const sentEntry = wallet.history.entries(NATIVE_ASSET).find((e) => e.txid === withdraw)!;
  const { sc_outcome: _, ...waiting } = { ...sentEntry, height: 0, topoheight: -1, blockhash: '' };
  unconfirmed.add(NATIVE_ASSET, waiting);
  await unconfirmed.confirm(new DaemonClient(daemon.url));
  t.match(
    unconfirmed.entries(NATIVE_ASSET)[0],
    { blockhash: sentEntry.blockhash, sc_outcome: entry.sc_outcome },
    'confirm fills it',
  );

  const reloaded = new TransferHistory();
  reloaded.load(parseExactJson(stringifyExactJson(wallet.history.toJSON())));
  t.same(
    reloaded.entries(NATIVE_ASSET).find((e) => e.txid === withdraw)!.sc_outcome,
    entry.sc_outcome,
    "kept through the wallet file's form",
  );
});
