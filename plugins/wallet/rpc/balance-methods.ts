/**
 * The wallet's chain-facing methods: GetBalance (optional `scid`; `balance` and `unlocked_balance`, always equal:
 * nothing is locked; the history sync runs to the top first), GetHeight (the daemon's height as the wallet knows it:
 * verified, in the proven modes) and GetStatus (how the wallet reads the chain: its mode, privacy set, daemon and
 * last verified height, after checking the daemon's new headers). They ask the daemon at once;
 * a WalletError (`Account Unregistered`, `Daemon is offline …`) is answered -32098 with its message and code.
 */
import { noParams, objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import type { WalletService } from '../../../wallet/wallet-service.js';

export function balanceMethods(wallet: WalletService): RpcMethod[] {
  return [
    defineMethod({
      name: 'GetBalance',
      params: objectParams(p.object({ scid: p.optional(p.hash(), NATIVE_ASSET) })),
      handler: async ({ scid }) => {
        wallet.historySync.follow(scid); // a token asked for is followed by the history sync from now on
        await wallet.sync();
        const balance = await wallet.balance(scid);
        return { balance, unlocked_balance: balance };
      },
    }),
    defineMethod({
      name: 'GetHeight',
      params: noParams,
      handler: async () => ({ height: await wallet.height() }),
    }),
    defineMethod({
      name: 'GetStatus',
      params: noParams,
      handler: async () => {
        await wallet.height();
        const { mode, privacySet, daemon, sendDaemon, verifiedHeight } = wallet.status();
        return { mode, privacy_set: privacySet, daemon, send_daemon: sendDaemon, verified_height: verifiedHeight };
      },
    }),
  ];
}
