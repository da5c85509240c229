/**
 * The wallet's push topics (docs/rpc.md § WebSocket push): `history`, each new history entry as GetTransferbyTXID
 * answers it (`scid` and `entry`), and `balance`, each balance change the history sync finds (`scid`, `old` and `new`
 * balance in atomic units).
 */
import type { RpcEndpoint } from '../../host/rpc/endpoint.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import { transferEntryJson } from './rpc/transfer-entry-json.js';

export function publishWalletTopics(wallet: WalletService, endpoint: RpcEndpoint): void {
  endpoint.addTopic('history');
  endpoint.addTopic('balance');
  wallet.history.onAdd((scid, entry) => endpoint.publish('history', () => ({ scid, entry: transferEntryJson(entry) })));
  wallet.historySync.onBalanceChange(({ scid, before, after }) =>
    endpoint.publish('balance', () => ({ scid, old: before, new: after })),
  );
}
