/**
 * A token minted at 2^60 atomic units, beyond what a JSON number holds exactly (2^53): the installer's history entry
 * of the mint shows every digit in the wallet RPC's GetTransfers and, from the saved wallet file, in `umbra wallet
 * history` through the real CLI against an in-process simulator daemon.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../protocol/address.js';
import { toHex } from '../../../protocol/bytes.js';
import { parseExactJson } from '../../../protocol/exact-json.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { makeRegistration } from '../../../protocol/registration.js';
import { encodeTransaction } from '../../../protocol/transaction.js';
import { BalanceDecoder } from '../../../wallet/balance-decoder.js';
import { WalletFile } from '../../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../../wallet/wallet-keys.js';
import { postRpc, rpcCall, startTestApp } from '../../helpers/app.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { autoMine, mined, startWalletApp, testWallet } from '../../helpers/wallet-app.js';

const core = await loadCore();
const MINTED = 1n << 60n;
const MINTER = `Function InitializePrivate() Uint64
10 SEND_ASSET_TO_ADDRESS(SIGNER(), ${MINTED}, SCID())
20 RETURN 0
End Function
`;

/**
 * The wallet finds a balance by baby-step giant-step up to 2^41 atomic units; above, only a hint finds it. The test's
 * wallet is hinted 2^60 (a hint counts only when it is the balance, so every other decode is unchanged).
 */
function hintMinted(t: Test): void {
  const decodePoint = BalanceDecoder.prototype.decodePoint;
  BalanceDecoder.prototype.decodePoint = function (point, hints = []) {
    return decodePoint.call(this, point, [...hints, MINTED]);
  };
  t.teardown(() => {
    BalanceDecoder.prototype.decodePoint = decodePoint;
  });
}

t.test('a token minted at 2^60 shows exactly in GetTransfers and in `wallet history`', async (t) => {
  hintMinted(t);
  const dir = mkdtempSync(join(tmpdir(), 'umbra-large-token-'));
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, 'pw\n');
  const daemon = await startTestApp(t, { network: 'simulator' });
  autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const walletFile = await WalletFile.create(
    join(dir, 'premine.wallet'),
    'pw',
    keyContents(walletKeys(core, 'simulator', premineSecret(core, 'simulator'))),
    { N: 1 << 10, r: 8, p: 1 },
  );
  const wallet = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url, { file: walletFile });
  const walletUrl = await startWalletApp(t, wallet);
  // A ring of 2 needs another registered account.
  await rpcCall(daemon.url, 'NODE.SendRawTransaction', {
    tx_as_hex: toHex(
      encodeTransaction(makeRegistration(core, core.generators('UMBRA').G, bigintToBytes32BE(randomScalar()), 0)),
    ),
  });
  await mined(daemon.url);
  const installed = await fetch(`${walletUrl}/install_sc`, { method: 'POST', body: MINTER });
  const { txid: token } = (await installed.json()) as { txid: string };
  t.match(token, /^[0-9a-f]{64}$/);
  await mined(daemon.url);

  const answer = await postRpc(walletUrl, {
    jsonrpc: '2.0',
    id: 1,
    method: 'GetTransfers',
    params: { in: true, scid: token },
  });
  t.match(answer.text, `"amount":${MINTED},`, 'GetTransfers writes every digit');
  t.match(answer.json.result.entries, [{ txid: token, scid: token, incoming: true, amount: MINTED }]);

  const run = await runCli(
    ['wallet', 'history', '--asset', token, '--json', ...walletFlags(walletFile.path, passwordFile, daemon.url)],
    undefined,
    60_000,
    { HOME: dir },
  );
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, `"amount":${MINTED},`, '`wallet history --json` writes every digit');
  t.match(parseExactJson(run.stdout), { asset: token, entries: [{ direction: 'in', amount: MINTED, txid: token }] });

  const text = await runCli(
    ['wallet', 'history', '--asset', token, ...walletFlags(walletFile.path, passwordFile, daemon.url)],
    undefined,
    60_000,
    { HOME: dir },
  );
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, / in +11529215046068\.46976 /, 'and its table shows it in coins, to the last unit');
});
