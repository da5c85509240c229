/** A wallet operation that cannot be done; the message is what the user sees (RPC: -32098 with this message). */
export class WalletError extends Error {
  override readonly name = 'WalletError';
}
