/**
 * The JSON the web wallet's server answers and its page reads: one declaration for both sides (the page imports it
 * for its types only). Amounts travel as decimal strings of atomic units, with their text in coins beside them.
 */
import type { DappPermission, DappRequest } from './dapp/approvals.js';

/** What the page calls an asset (asset-names.ts), and where that name comes from. */
export interface AssetName {
  name: string;
  source: 'native' | 'label' | 'contract' | 'scid';
}

export interface AssetBalance extends AssetName {
  /** 64 hex; zeros for the native coin. */
  scid: string;
  native: boolean;
  atomic: string;
  /** In the asset's units, e.g. 1.50000 UMB (a token's amount without a unit). */
  text: string;
}

export interface Overview {
  address: string;
  network: string;
  daemon: string;
  /** The daemon's topoheight, and the one the wallet's history is synced to (0 before the first sync). */
  topoheight: number;
  synced: number;
  /** Whether the wallet's history has reached the daemon's top at least once since the page opened. */
  caughtUp: boolean;
  /** Empty while the account is not registered on chain. */
  balances: AssetBalance[];
  /** How the wallet reads the chain (docs/wallet.md § Privacy modes). */
  privacy: {
    mode: 'private' | 'trusted' | 'fast';
    /** Accounts the wallet's state is read among (private mode). */
    privacySet: number | null;
    /** The height of the header chain the wallet verified (the proven modes). */
    verifiedHeight: number | null;
    sendDaemon: string;
  };
}

export interface HistoryRow {
  /** Unique within the history: txid, payload index and direction. */
  key: string;
  txid: string;
  /** 0 while in no block. */
  height: number;
  time: string;
  incoming: boolean;
  coinbase: boolean;
  scid: string;
  /** The asset's name (asset-names.ts). */
  asset: string;
  atomic: string;
  text: string;
  feeText: string;
  /** The other side: the sender of an incoming entry (when known), the receiver of an outgoing one. */
  counterparty: string;
  proof: string;
  /** A contract call's or install's outcome when mined, in words. */
  outcome?: string;
}

export interface DestinationCheck {
  address: string;
  /** An integrated address's arguments, as `name (type) = value`. */
  args: string[];
}

export interface SendPreview {
  address: string;
  /** The asset sent, by name (the fee is always in UMB). */
  asset: string;
  atomic: string;
  text: string;
  feeText: string;
  ring: number;
}

export type JobStep = 'building' | 'sent' | 'mined' | 'failed';

/** A transaction the page started, and how far it has gone. */
export interface Job {
  id: string;
  /** What it does, in words. */
  title: string;
  step: JobStep;
  txid?: string;
  height?: number;
  /** A mined contract transaction's outcome, in words. */
  outcome?: string;
  error?: string;
}

export interface ContractParam {
  name: string;
  type: 'Uint64' | 'String';
}

export interface ContractInfo {
  scid: string;
  entryPoints: { name: string; params: ContractParam[] }[];
}

export interface ContractCallRequest {
  scid: string;
  entrypoint: string;
  /** Values by parameter name, as typed. */
  args: Record<string, string>;
  /** Coins deposited, as typed (empty: none). */
  deposit: string;
}

export interface Trial {
  ok: boolean;
  message: string;
  gas?: string;
  feeText?: string;
}

export interface ProofCheck {
  ok: boolean;
  message: string;
}

export interface Settings {
  daemon: string;
  /** The daemon the wallet sends through, when it has one of its own (--send-daemon); null otherwise. */
  sendDaemon: string | null;
  ring: number;
  lockMinutes: number;
  /** Whether the daemons and the ring chosen here are kept in the wallet file for the next start. */
  kept: boolean;
}

export interface Approvals {
  available: boolean;
  pending: DappRequest[];
  permissions: DappPermission[];
}

/** What the push stream (`/api/events`) says changed; the page reads it again. */
export type PushTopic = 'wallet' | 'lock' | 'approvals' | 'job';

export const SESSION_HEADER = 'x-umbra-session';
