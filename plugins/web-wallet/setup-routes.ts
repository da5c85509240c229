/**
 * The page's first run when the wallet file does not exist yet: fresh seed words, shown once (the page then asks the
 * person to pick some of them back before going on), or restored ones, and a password; the wallet file is then made
 * and opened, and the page serves it.
 */
import { mnemonicToSecretKey, newMnemonic } from '../../protocol/mnemonic.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { ApiHandler } from './api-routes.js';
import type { WalletSetup } from './settings.js';
import { textField, WebWalletError, WebWalletErrorCode } from './web-wallet-error.js';

/** The shortest password a new wallet file takes. */
const MIN_PASSWORD = 8;

export function setupRoutes(setup: WalletSetup, opened: (wallet: WalletService) => void): Map<string, ApiHandler> {
  /** The fresh words last shown: only these can make a new wallet. */
  let offered: string | undefined;
  let done = false;
  const create = async (mnemonic: string, password: string): Promise<{ address: string }> => {
    if (done) throw new WebWalletError(WebWalletErrorCode.BadRequest, 'the wallet is made already');
    if (password.length < MIN_PASSWORD)
      throw new WebWalletError(WebWalletErrorCode.BadRequest, `the password needs at least ${MIN_PASSWORD} characters`);
    const wallet = await setup.create(mnemonic, password);
    done = true;
    opened(wallet);
    return { address: wallet.address };
  };
  return new Map<string, ApiHandler>([
    ['GET /api/setup', { whileLocked: true, run: async () => ({ needed: !done, network: setup.network }) }],
    [
      'POST /api/setup/words',
      { whileLocked: true, run: async () => ({ words: (offered = newMnemonic()).split(' ') }) },
    ],
    [
      'POST /api/setup/create',
      {
        whileLocked: true,
        run: (body) => {
          if (!offered) throw new WebWalletError(WebWalletErrorCode.BadRequest, 'ask for fresh words first');
          return create(offered, textField(body, 'password', 'the password'));
        },
      },
    ],
    [
      'POST /api/setup/restore',
      {
        whileLocked: true,
        run: (body) => {
          const words = textField(body, 'words', 'the seed words');
          mnemonicToSecretKey(words); // words that are no seed are refused before anything is written, saying why
          return create(words, textField(body, 'password', 'the password'));
        },
      },
    ],
  ]);
}
