/** `wallet create` and `wallet restore`: a new wallet file for a secret key, and what the person must know about it. */
import { loadCore } from '../../core-native/ts/index.js';
import { WalletFile } from '../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../wallet/wallet-keys.js';
import { labelled, render, type CommandOutput } from './output.js';
import { flaggedNetwork, readNewPassword, type SessionFlags } from './session.js';

export interface CreatedWallet {
  wallet_file: string;
  network: string;
  address: string;
  /** Only for a new wallet: the words are shown this once. */
  mnemonic?: string;
}

/** Writes a new wallet file for `secretKey` (default network: mainnet) and prints its address (and words). */
export async function createWallet(
  flags: SessionFlags,
  secretKey: Uint8Array,
  output: CommandOutput,
  showMnemonic: boolean,
): Promise<void> {
  const network = flaggedNetwork(flags) ?? 'mainnet';
  const password = await readNewPassword(flags);
  const keys = walletKeys(await loadCore({ impl: flags.crypto }), network, secretKey);
  await WalletFile.create(flags.walletFile, password, keyContents(keys));
  const result: CreatedWallet = {
    wallet_file: flags.walletFile,
    network,
    address: keys.address,
    ...(showMnemonic ? { mnemonic: keys.mnemonic } : {}),
  };
  render(output, flags.json, result, createdText);
}

function createdText(result: CreatedWallet): string {
  const rows: [string, string][] = [
    ['wallet file', result.wallet_file],
    ['network', result.network],
    ['address', result.address],
  ];
  if (result.mnemonic === undefined) return labelled(rows);
  return (
    labelled([...rows, ['mnemonic', result.mnemonic]]) +
    'Write the 24 words down and keep them private: they restore the wallet, and anyone who has them controls the funds.\n'
  );
}
