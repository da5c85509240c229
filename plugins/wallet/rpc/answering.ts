/** Runs a wallet operation for an RPC method: a WalletError becomes -32098 with its message. */
import { ApplicationError } from '../../../host/rpc/errors.js';
import { WalletError } from '../../../wallet/wallet-error.js';

export async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof WalletError) throw new ApplicationError(error.message);
    throw error;
  }
}
