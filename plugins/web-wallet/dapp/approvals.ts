/**
 * What web apps connected to the wallet ask for and wait on, and the origins the user has let in: the connection
 * endpoint (docs/dapps.md) fills it; the web wallet's page, or the terminal running `umbra wallet web`, answers it.
 */
export type DappRequestKind = 'connect' | 'address' | 'sign' | 'transfer' | 'call';

export interface DappRequest {
  id: string;
  origin: string;
  /** The name the app gave when it asked to connect. */
  name: string;
  kind: DappRequestKind;
  /** One line saying what approving does, e.g. "send 1.5 UMB to umbra1… (ring 16)". */
  summary: string;
  /** The request's parameters as the wallet read them (amounts in atomic units, as decimal strings). */
  details: Record<string, string>;
  /** A contract call's trial run, before approval: whether it would commit, why not, and its gas. */
  trial?: { ok: boolean; message: string; gas?: string };
  /** Unix ms after which the request is answered as timed out. */
  expiresAt: number;
}

export interface DappPermission {
  origin: string;
  name: string;
  grantedAt: number;
}

export interface DappApprovals {
  pending(): DappRequest[];
  /** Calls `listener` when a request arrives or is settled, or a permission changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Carries the request out (connects, answers the address, signs, sends) and answers the app. */
  approve(id: string): Promise<void>;
  deny(id: string): void;
  permissions(): DappPermission[];
  revoke(origin: string): void;
}
