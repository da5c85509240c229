/** The overview, the balances and the history as the page shows them, read from the open wallet (WalletService). */
import { UmbraError } from '../../core-native/ts/errors.js';
import { describeOutcome } from '../../protocol/contract-outcome-text.js';
import { coinsText, formatCoins } from '../../protocol/coin-amount.js';
import type { HistoryEntry } from '../../wallet/history-entry.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { AssetBalance, HistoryRow, Overview } from './api-types.js';
import type { AssetNames } from './asset-names.js';

/** An amount of `scid` in coins: the native coin with its unit, a token without one. */
export const amountText = (atomic: bigint, scid: string): string =>
  scid === NATIVE_ASSET ? coinsText(atomic) : formatCoins(atomic);

/** The balance of the native coin and of every token the wallet follows, each by name, the native coin first. */
export async function balances(wallet: WalletService, names: AssetNames): Promise<AssetBalance[]> {
  const assets = [NATIVE_ASSET, ...wallet.historySync.tokens.keys()];
  try {
    return await Promise.all(
      assets.map(async (scid) => {
        const [atomic, name] = await Promise.all([wallet.balance(scid), names.nameOf(scid)]);
        const native = scid === NATIVE_ASSET;
        return { scid, native, atomic: atomic.toString(), text: amountText(atomic, scid), ...name };
      }),
    );
  } catch (error) {
    if (UmbraError.is(error, WalletErrorCode.AccountUnregistered)) return [];
    throw error;
  }
}

export async function overview(wallet: WalletService, names: AssetNames, caughtUp: boolean): Promise<Overview> {
  // The height as the wallet accepts it: its light client checks the daemon's headers first, in the proven modes.
  const [height, held] = await Promise.all([wallet.height(), balances(wallet, names)]);
  const { mode, privacySet, verifiedHeight, sendDaemon, daemon } = wallet.status();
  return {
    address: wallet.address,
    network: wallet.keys.network,
    daemon,
    topoheight: height,
    synced: wallet.historySync.position?.topoheight ?? 0,
    caughtUp,
    balances: held,
    privacy: { mode, privacySet, verifiedHeight, sendDaemon },
  };
}

function historyRow(scid: string, asset: string, entry: HistoryEntry): HistoryRow {
  return {
    key: `${entry.txid}:${entry.pos}:${entry.incoming ? 'in' : 'out'}:${scid}`,
    txid: entry.txid,
    height: entry.height,
    time: entry.time,
    incoming: entry.incoming,
    coinbase: entry.coinbase,
    scid,
    asset,
    atomic: entry.amount.toString(),
    text: amountText(entry.amount, scid),
    feeText: coinsText(entry.fees),
    counterparty: entry.incoming ? entry.sender : entry.destination,
    proof: entry.proof,
    ...(entry.sc_outcome ? { outcome: describeOutcome(entry.sc_outcome) } : {}),
  };
}

/** Every entry of every asset, each with its asset's name, newest first. */
export async function historyRows(wallet: WalletService, names: AssetNames): Promise<HistoryRow[]> {
  const assets = wallet.history.assets();
  const named = await Promise.all(assets.map(async ([scid]) => (await names.nameOf(scid)).name));
  const rows = assets.flatMap(([scid, entries], i) => entries.map((entry) => historyRow(scid, named[i]!, entry)));
  const pending = (row: HistoryRow): number => (row.height === 0 ? Number.MAX_SAFE_INTEGER : row.height);
  return rows.sort((a, b) => pending(b) - pending(a) || b.time.localeCompare(a.time));
}
