/** Every wallet RPC method, for a wallet endpoint's registry (names and snake_case aliases: docs/rpc.md § Wallet methods). */
import type { Core } from '../../../core-native/ts/core.js';
import { echoMethod } from '../../../host/rpc/echo.js';
import type { RpcMethod } from '../../../host/rpc/registry.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import { addressMethods } from './address-methods.js';
import { balanceMethods } from './balance-methods.js';
import { historyMethods } from './history-methods.js';
import { keyMethods } from './key-methods.js';
import { transferMethods } from './transfer-methods.js';

/** The word `Echo` answers with before the echoed words. */
export const WALLET_ECHO_LABEL = 'WALLET';

export function walletMethods(wallet: WalletService, core: Core): RpcMethod[] {
  return [
    echoMethod(WALLET_ECHO_LABEL, 'Echo'),
    ...addressMethods(wallet, core),
    ...balanceMethods(wallet),
    ...keyMethods(wallet),
    ...transferMethods(wallet),
    ...historyMethods(wallet),
  ];
}
