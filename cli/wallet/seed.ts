/** `wallet seed`: the 24 seed words, after a confirmation (anyone who sees them controls the funds). */
import { confirmOrRefuse } from './confirmation.js';
import type { WalletSession } from './session.js';

export interface SeedResult {
  mnemonic: string;
}

export async function seed(session: WalletSession, options: { yes?: boolean }): Promise<SeedResult> {
  await confirmOrRefuse(
    'Show the 24 seed words? Anyone who sees them controls the funds.',
    options.yes,
    'show the seed words',
  );
  return { mnemonic: session.wallet.keys.mnemonic };
}

export const seedText = (result: SeedResult): string =>
  `${result.mnemonic}\nKeep these 24 words private: they restore the wallet, and anyone who has them controls the funds.\n`;
