/**
 * What each subcommand does, in the order `umbra --help` lists them: the list is printed without loading any command,
 * and each command uses its line as its own description.
 */
export const COMMAND_SUMMARIES = {
  daemon: 'run an Umbra node: chain, pool, contract VM and the daemon JSON-RPC server',
  keys: 'create keys and inspect addresses (works offline)',
  wallet:
    'create, restore and open wallets; balance, history, send coins, call and install contracts; an interactive shell',
  miner: "mine for a wallet address with this machine's CPU, on work from a daemon",
  simulator:
    'a local devnet for contract developers: a daemon that mines on demand and funded wallets with RPC servers',
  contract: 'tools for contract developers',
  status: "show a daemon's height, sync progress, peers, pool, hash rate, version and uptime",
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
