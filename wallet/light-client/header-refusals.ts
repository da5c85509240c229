/**
 * How the light client refuses a daemon: a WalletError whose message names the daemon (its URL), what it served
 * (height, hash, the check that failed) and what was not kept (runs of its headers checked earlier in the same sync
 * were, being verified).
 */
import { toHex } from '../../protocol/bytes.js';
import type { BlockRejected } from '../../protocol/chain/block-errors.js';
import type { Checkpoint } from '../../protocol/chain/checkpoints.js';
import { WalletError, WalletErrorCode } from '../wallet-error.js';

const KEPT = 'nothing it served was kept';

/** A served block that fails a rule (the BlockRejected says which). */
export function headerRefused(url: string, height: bigint, id: Uint8Array, reason: BlockRejected): WalletError {
  return new WalletError(
    WalletErrorCode.HeaderRefused,
    `the daemon at ${url} served block ${height} (${toHex(id)}), which fails the ${reason.code} check: ${reason.message}; nothing from block ${height} on was kept`,
    { cause: reason },
  );
}

/** An answer that is not the headers asked for. */
export function answerRefused(url: string, problem: string): WalletError {
  return new WalletError(
    WalletErrorCode.HeaderRefused,
    `the daemon at ${url} ${problem}; nothing of that answer was kept`,
  );
}

export function daemonBehind(url: string, daemonTop: bigint, verifiedHeight: bigint, what: string): WalletError {
  return new WalletError(
    WalletErrorCode.DaemonBehind,
    `the daemon at ${url} is behind: its top is at height ${daemonTop}, below ${what} at height ${verifiedHeight}; ${KEPT}`,
  );
}

export function lessWork(
  url: string,
  served: { height: bigint; work: bigint },
  verified: { height: bigint; work: bigint },
  forkHeight: bigint,
): WalletError {
  return new WalletError(
    WalletErrorCode.LessWork,
    `the daemon at ${url} serves a chain that forks from the verified one above height ${forkHeight} with less work: ` +
      `${served.work} through height ${served.height}, against ${verified.work} through height ${verified.height}; ${KEPT}`,
  );
}

export function notOnTrustedChain(url: string, start: Checkpoint, served: Uint8Array | undefined): WalletError {
  const what = start.height === 0n ? 'genesis block' : `checkpoint ${start.height}:${toHex(start.id)}`;
  return new WalletError(
    WalletErrorCode.NotOnTrustedChain,
    `the daemon at ${url} is not on the chain of the wallet's ${what}: ` +
      (served ? `its block ${start.height} is ${toHex(served)}` : `it serves no block ${start.height}`) +
      ` (another network, or another chain); ${KEPT}`,
  );
}
