/**
 * `wallet install FILE.bas`: installs a contract (ring 2 by default); its SCID is the installing transaction's txid,
 * and the outcome is Initialize's.
 */
import { readFileSync } from 'node:fs';
import { installArgs } from '../../wallet/contract-args.js';
import { DEFAULT_CONTRACT_RING } from '../../wallet/wallet-constants.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';
import { sentRows, submitTransaction, type SentTransaction, type SubmitOptions } from './transaction-submission.js';

export interface InstallOptions extends SubmitOptions {
  file: string;
  /** Send even when the wallet's trial run says Initialize fails. */
  force?: boolean;
}

export interface InstallResult extends SentTransaction {
  file: string;
  /** The new contract's id (the txid). */
  scid: string;
}

function readCode(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      CliErrorCode.UnreadableFile,
      `cannot read the contract ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

export async function install(session: WalletSession, options: InstallOptions): Promise<InstallResult> {
  const code = readCode(options.file);
  const sent = await submitTransaction(
    session,
    { transfers: [], scRpc: installArgs(code), force: options.force },
    DEFAULT_CONTRACT_RING,
    [
      ['install', options.file],
      ['code', `${Buffer.byteLength(code)} bytes`],
    ],
    options,
  );
  return { file: options.file, scid: sent.txid, ...sent };
}

export const installText = (result: InstallResult): string =>
  labelled([['installed', result.file], ['scid', result.scid], ...sentRows(result)]);
