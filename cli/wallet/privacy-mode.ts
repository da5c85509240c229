/**
 * How a wallet command reads the chain (docs/wallet.md § Privacy modes): privately and proven by default; proven but
 * by address with --trusted-daemon; the header chain it checks starting at the shipped checkpoint or --checkpoint,
 * kept beside the wallet file; privacy ranges of --privacy-set accounts at least.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Core } from '../../core-native/ts/core.js';
import { ProvenAccess } from '../../wallet/chain-access/proven-access.js';
import type { DaemonClient } from '../../wallet/daemon-client.js';
import { headerFilePath } from '../../wallet/light-client/header-file.js';
import { LightClient } from '../../wallet/light-client/light-client.js';
import { parseCheckpoint } from '../../wallet/light-client/trusted-start.js';
import { DEFAULT_PRIVACY_K } from '../../wallet/private-reads/privacy-range.js';
import type { WalletKeys } from '../../wallet/wallet-keys.js';
import { syncProgressBar } from './sync-progress-bar.js';

export interface PrivacyFlags {
  trustedDaemon?: boolean;
  sendDaemon?: string;
  privacySet?: number;
  checkpoint?: string;
}

/** The largest privacy set asked for: a range read whole stays a few answers. */
const MAX_PRIVACY_SET = 65_536;

function privacySetSize(text: string): number {
  const k = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(k) || k < 1 || k > MAX_PRIVACY_SET)
    throw new InvalidArgumentError(`the privacy set is a whole number of accounts from 1 to ${MAX_PRIVACY_SET}`);
  return k;
}

/** Adds the privacy flags to a wallet command. */
export const privacyOptions = (command: Command): Command =>
  command
    .option(
      '--trusted-daemon',
      "ask the daemon by the wallet's address (faster; the daemon learns the account): for a daemon you run yourself",
    )
    .addOption(
      new Option(
        '--privacy-set <accounts>',
        `read the wallet's state among at least this many accounts (default ${DEFAULT_PRIVACY_K})`,
      ).argParser(privacySetSize),
    )
    .option('--checkpoint <height:hash>', 'start checking headers at this block instead of the shipped checkpoint')
    .option(
      '--send-daemon <host:port>',
      "send transactions (and ask what building them needs) through this daemon instead: the sync's daemon then cannot tell which transactions are the wallet's",
    );

/** The proven reads of the wallet whose file is `walletFile` (its header chain kept beside it). */
export function provenAccess(
  flags: PrivacyFlags,
  wallet: {
    core: Core;
    keys: WalletKeys;
    daemon: DaemonClient;
    sendDaemon?: DaemonClient;
    walletFile: string;
    saved: unknown;
  },
): ProvenAccess {
  const { core, keys, daemon, sendDaemon, walletFile, saved } = wallet;
  const progress = syncProgressBar('checking headers');
  const light = LightClient.open({
    core,
    network: keys.network,
    path: headerFilePath(walletFile),
    ...(flags.checkpoint === undefined ? {} : { start: parseCheckpoint(flags.checkpoint) }),
    ...(progress && { onProgress: ({ height, top }) => progress(Number(height), Number(top)) }),
  });
  return new ProvenAccess({
    core,
    keys,
    daemon,
    ...(sendDaemon && { sendDaemon }),
    light,
    mode: flags.trustedDaemon ? 'trusted' : 'private',
    ...(flags.privacySet === undefined ? {} : { privacySet: flags.privacySet }),
    saved,
  });
}
