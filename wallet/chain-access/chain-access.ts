/**
 * How the wallet reads the chain, in one of three modes (docs/wallet.md § Privacy modes). The history sync, the
 * transfer sender, name look-ups and balances ask through this and never the daemon directly, so the mode decides in
 * one place what the daemon learns and what the wallet checks:
 * - `private` (the command line's default): a header chain the wallet checked itself, every value proven against it,
 *   and nothing asked that names the account — its state is read as its privacy range, its history as the blocks in
 *   which that range changed;
 * - `trusted` (`--trusted-daemon`, for a daemon of one's own): values still proven, but the account's changes are
 *   asked for by address, as fast as the daemon lists them;
 * - `fast` (the simulator's wallets and library users that ask for it): the daemon's answers as they come.
 */
import type { BalanceAt, DaemonClient } from '../daemon-client.js';
import type { ChainBlock } from '../block-scanner.js';

export type WalletMode = 'private' | 'trusted' | 'fast';

/** The top the wallet reads at: in the proven modes, the top of the header chain it verified. */
export interface ChainTop {
  height: number;
  topoheight: number;
  /** The block's id (hex). */
  hash: string;
  /** The state root after the block (hex). */
  stateRoot: string;
}

/** What `umbra wallet status` and the wallet RPC's GetStatus show of the mode. */
export interface AccessStatus {
  mode: WalletMode;
  daemon: string;
  /** Accounts a privacy range holds at least (private mode). */
  privacySet: number | null;
  /** The top of the verified header chain (proven modes; null before the first sync). */
  verifiedHeight: number | null;
}

/** An account's balance of an asset, as a ring asks for it. */
export interface BalanceWanted {
  scid: string;
  address: string;
}

/** The key under which ringBalances answers one wanted balance. */
export const balanceKey = (scid: string, address: string): string => `${scid}:${address}`;

export interface ChainAccess {
  readonly mode: WalletMode;
  /** The chain's top as the wallet accepts it (checked first, in the proven modes). */
  top(): Promise<ChainTop>;
  /** The id of the block at a topoheight at or below the top last read; undefined when there is none. */
  headerHash(topoheight: number): Promise<string | undefined>;
  /** The wallet's encrypted balance of an asset after a block (hex); undefined when it holds no entry there. */
  ownBalance(scid: string, topoheight: number): Promise<string | undefined>;
  /**
   * Where the wallet's history is read from (it is registered at `top`): the block that registered it, or, in private
   * mode, the start of the verified chain (the registration is then found in the history, not asked about).
   */
  registration(top: number): Promise<number>;
  /**
   * Every change in (from, to] of the wallet's encrypted balance of an asset, in chain order; `blocks` reads blocks
   * the way the sync caches them (a mode that must read blocks to find the changes reads them through it).
   */
  balanceChanges(
    scid: string,
    from: BalanceAt,
    to: BalanceAt,
    blocks: (topoheights: readonly number[]) => Promise<ChainBlock[]>,
  ): Promise<BalanceAt[]>;
  /** Blocks, whole, in the order asked. */
  readBlocks(topoheights: readonly number[]): Promise<ChainBlock[]>;
  /** Encrypted balances (hex) after block `topoheight`, by balanceKey; accounts without an entry are left out. */
  balancesOf(wanted: readonly BalanceWanted[], topoheight: number): Promise<Map<string, string>>;
  /** The address owning a registered name at the top; undefined when the name is free. */
  nameOwner(name: string): Promise<string | undefined>;
  /** A contract's String variable under a String key at the top, as UTF-8 text; undefined when it holds none. */
  contractText(scid: string, key: string): Promise<string | undefined>;
  status(): AccessStatus;
  /**
   * Checks another daemon as the mode checks its own before the wallet moves to it: in the proven modes its headers
   * must extend the chain the wallet verified (the light client's sync, which adopts them when heavier); the fast
   * mode believes any daemon. Throws the refusal.
   */
  checkDaemon(candidate: DaemonClient): Promise<void>;
  /** What the mode keeps in the wallet file between runs (the proven modes: the privacy ranges found). */
  saved(): unknown;
  /** Stops what the mode runs in the background (the proof-of-work checks). */
  close(): Promise<void>;
}
