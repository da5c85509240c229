/** The two RPC servers a process can serve on `rpcBind`: a daemon's (the default) or, for a wallet process, the wallet's. */
import type { RpcEndpointOptions } from './endpoint.js';

export type RpcServerKind = Pick<RpcEndpointOptions, 'name' | 'label' | 'optionalMethodPrefix'>;

export const DAEMON_RPC_SERVER: RpcServerKind = { name: 'daemon', label: 'Umbra daemon' };

/** The wallet RPC server: no method prefix on HTTP; `WALLET.` is accepted before any name (the WebSocket form). */
export const WALLET_RPC_SERVER: RpcServerKind = {
  name: 'wallet',
  label: 'Umbra wallet',
  optionalMethodPrefix: 'WALLET.',
};
