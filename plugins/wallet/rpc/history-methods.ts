/**
 * The wallet's history methods (docs/rpc.md § GetTransfers, § GetTransferbyTXID): GetTransfers (categories `in`, `out`, `coinbase`; heights
 * `min_height`…`max_height`, 0 = no upper bound; `sender`, `receiver`, `dstport`, `srcport`, `scid`, all honoured; a
 * token's `scid` makes the history sync follow that token) and
 * GetTransferbyTXID (`txid`, optional `scid`; without it every asset's history is searched).
 */
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import { argumentPort, type HistoryEntry } from '../../../wallet/history-entry.js';
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import { WalletError, WalletErrorCode } from '../../../wallet/wallet-error.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import { transferEntryJson } from './transfer-entry-json.js';

interface Filters {
  scid: string;
  in: boolean;
  out: boolean;
  coinbase: boolean;
  min_height: number;
  max_height: number;
  sender: string;
  receiver: string;
  dstport: number;
  srcport: number;
}

function matches(entry: HistoryEntry, f: Filters): boolean {
  const category = entry.coinbase ? f.coinbase : entry.incoming ? f.in : f.out;
  return (
    category &&
    entry.height >= f.min_height &&
    (f.max_height === 0 || entry.height <= f.max_height) &&
    (f.sender === '' || entry.sender === f.sender) &&
    (f.receiver === '' || entry.destination === f.receiver) &&
    (f.dstport === 0 || argumentPort(entry.args, 'D') === BigInt(f.dstport)) &&
    (f.srcport === 0 || argumentPort(entry.args, 'S') === BigInt(f.srcport))
  );
}

export function historyMethods(wallet: WalletService): RpcMethod[] {
  return [
    defineMethod({
      name: 'GetTransfers',
      aliases: ['get_transfers'],
      params: objectParams(
        p.object({
          scid: p.optional(p.hash(), NATIVE_ASSET),
          in: p.optional(p.bool(), false),
          out: p.optional(p.bool(), false),
          coinbase: p.optional(p.bool(), false),
          min_height: p.optional(p.uint(), 0),
          max_height: p.optional(p.uint(), 0),
          sender: p.optional(p.string(), ''),
          receiver: p.optional(p.string(), ''),
          dstport: p.optional(p.uint(), 0),
          srcport: p.optional(p.uint(), 0),
        }),
      ),
      handler: async (filters) => {
        // A token named here is followed from now on (its history is read from the registration).
        wallet.historySync.follow(filters.scid);
        await wallet.sync();
        const entries = wallet.history.entries(filters.scid).filter((entry) => matches(entry, filters));
        return entries.length > 0 ? { entries: entries.map(transferEntryJson) } : {};
      },
    }),
    defineMethod({
      name: 'GetTransferbyTXID',
      aliases: ['get_transfer_by_txid'],
      params: objectParams(p.object({ txid: p.hash(), scid: p.optional(p.hash(), undefined) })),
      handler: async ({ txid, scid }) => {
        await wallet.sync();
        const histories = scid ? [[scid, wallet.history.entries(scid)] as const] : wallet.history.assets();
        for (const [asset, entries] of histories) {
          const entry = entries.find((e) => e.txid === txid);
          if (entry) return { scid: asset, entry: transferEntryJson(entry) };
        }
        throw new WalletError(WalletErrorCode.TransactionNotFound, `Transaction not found. TXID ${txid}`);
      },
    }),
  ];
}
