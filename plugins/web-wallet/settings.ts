/**
 * What the process that opened the wallet tells the `web-wallet` plugin: where to listen, who may log in, how to check
 * the wallet password, and the optional parts other code plugs in (the connection endpoint for web apps and its
 * approvals, the contract compiler, the setup of a wallet file that does not exist yet). The plugin reads it as the
 * `webWallet` service beside `wallet` (absent until the setup has made the wallet).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CompiledContract } from '../../host/services/contract-vm.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { DappApprovals } from './dapp/approvals.js';
import type { TerminalStreams } from './dapp/terminal-approvals.js';

export interface WebWalletSettings {
  host: string;
  /** 0: any free port. */
  port: number;
  /** `user:pass` for HTTP Basic auth on every request; required when `host` is not a loopback address. */
  login?: string;
  /** Minutes without activity on the page after which it locks. */
  lockMinutes: number;
  /** Resolves when `password` opens the wallet file, throws (WalletFileError) when it does not. */
  checkPassword(password: string): Promise<void>;
  /** Reads a contract's entry points and parameters from its code; absent: the contracts screen lists none. */
  compileContract?: (code: string) => CompiledContract;
  /**
   * Requests of web apps waiting for the user, and the origins let in; with `dappUpgrade`, what takes WebSocket
   * upgrades on `/dapp` (any origin: it asks the user itself). Absent, the plugin opens the connection endpoint of
   * dapp/ for the open wallet itself (its permissions kept in the wallet file).
   */
  approvals?: DappApprovals;
  dappUpgrade?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The wallet's name as connected web apps are told it. */
  walletName?: string;
  /** A terminal to ask on as well as the page (the one running `umbra wallet web`, when it is one). */
  terminal?: TerminalStreams;
  /** When the wallet file does not exist yet: the page creates or restores it, and then serves it. */
  setup?: WalletSetup;
  /** Called once listening, with the URL that carries the one-time token. */
  listening?: (url: string) => void;
}

export interface WalletSetup {
  network: string;
  /** Writes the wallet file for `mnemonic` with `password` and opens it (registering and syncing in the background). */
  create(mnemonic: string, password: string): Promise<WalletService>;
}

declare module '../../host/services/services.js' {
  interface Services {
    /** `umbra wallet web`: how the `web-wallet` plugin serves the open wallet. */
    webWallet: WebWalletSettings;
  }
}
