/** --cache-dir, for the commands that decode balances (the wallet's, the simulator): where the decoding table lives. */
import { Option } from 'commander';

export const cacheDirOption = (): Option =>
  new Option(
    '--cache-dir <dir>',
    'where the balance-decoding table is cached (default: $UMBRA_CACHE_DIR, else ~/.umbra/cache)',
  );
