/**
 * `umbra status`: one view of a daemon — height, sync progress and ETA, peers, pool, hash rate, version, uptime — as
 * text or `--json`; `--watch` redraws it every `--interval` seconds until Ctrl-C, and keeps trying while the daemon
 * cannot be reached. The daemon is the one --daemon-address names, else the local one of --network/--testnet, else
 * the local daemon of whichever network answers (status/local-daemon.ts).
 */
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { DaemonClient } from '../wallet/daemon-client.js';
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../protocol/network.js';
import { CliError, CliErrorCode } from './cli-error.js';
import { flagsToConfig } from './daemon-command.js';
import { reachingDaemon } from './daemon-offline.js';
import { answeringFailuresAsJson } from './json-failure.js';
import { type DaemonStatus, readDaemonStatus } from './status/daemon-status.js';
import { LocalDaemon, type StatusSource } from './status/local-daemon.js';
import { statusText } from './status/status-text.js';
import { watchStatus } from './status/watch.js';

interface StatusFlags {
  daemonAddress?: string;
  network?: NetworkName;
  testnet?: boolean;
  json?: boolean;
  watch?: boolean;
  interval?: string;
}

/** The daemon the flags name: --daemon-address, else the local daemon of the network, else any local daemon. */
function daemonOf(flags: StatusFlags): StatusSource {
  if (flags.daemonAddress) return new DaemonClient(flags.daemonAddress);
  const network = flagsToConfig(flags).network as NetworkName | undefined;
  return network ? new DaemonClient(`127.0.0.1:${NETWORKS[network].defaultRpcPort}`) : new LocalDaemon();
}

function intervalMs(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 86_400)
    throw new CliError(CliErrorCode.BadArgument, `--interval must be seconds between 0.1 and 86400, got ${text}`);
  return seconds * 1000;
}

export function statusCommand(write: (text: string) => void = (text) => void process.stdout.write(text)): Command {
  return new Command('status')
    .description(COMMAND_SUMMARIES.status)
    .option(
      '--daemon-address <host:port>',
      'daemon JSON-RPC address, host:port or an http(s) URL (default: the local daemon of --network, else of mainnet, testnet or the simulator, whichever answers: 127.0.0.1:10102, :40402, :20000)',
    )
    .addOption(new Option('--network <name>', 'network of the local daemon to ask').choices(NETWORK_NAMES))
    .option('--testnet', 'shorthand for --network testnet')
    .option('--json', 'print the status (or the error) as one JSON document; with --watch, one line per refresh')
    .option('--watch', 'refresh every --interval seconds until Ctrl-C')
    .option('--interval <seconds>', 'seconds between refreshes with --watch (default 2)')
    .action((flags: StatusFlags) =>
      answeringFailuresAsJson(flags.json, write, async () => {
        if (flags.interval !== undefined && !flags.watch)
          throw new CliError(CliErrorCode.BadArgument, '--interval sets how often --watch refreshes: add --watch');
        const client = daemonOf(flags);
        const render = (status: DaemonStatus): string =>
          flags.json ? `${JSON.stringify(status, null, flags.watch ? undefined : 2)}\n` : statusText(status);
        if (flags.watch) {
          // A reader that goes away (`umbra status --watch | head`) ends the watch, as it would any pipe.
          process.stdout.on('error', (error: NodeJS.ErrnoException) => {
            if (error.code === 'EPIPE') process.exit(0);
          });
          await watchStatus({
            client,
            render,
            write,
            note: (line) => void process.stderr.write(`umbra status: ${line}\n`),
            intervalMs: intervalMs(flags.interval ?? '2'),
            terminal: process.stdout.isTTY === true,
            // One JSON document per line; text views a blank line apart.
            separator: flags.json ? '' : '\n',
          });
          // Interrupted: a request still waiting on a daemon that does not answer must not hold the exit.
          process.exit(0);
        }
        write(render(await reachingDaemon(() => readDaemonStatus(client))));
      }),
    );
}
