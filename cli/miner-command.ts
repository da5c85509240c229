/**
 * `umbra miner`: mines for a wallet address against a daemon, on N threads of the AstroBWTv3 hash (native, or the
 * TypeScript fallback), printing its hash rate, jobs, accepted and rejected miniblocks and blocks every few seconds.
 * Work comes from the daemon's getwork server, or with --rpc from its JSON-RPC templates; a daemon that goes away is
 * reconnected to with a back-off; Ctrl-C stops it cleanly.
 */
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { CRYPTO_IMPLS, LOG_LEVELS } from '../host/config/schema.js';
import { createLogger, type LogLevel } from '../host/logger.js';
import { CpuMiner } from '../host/mining/cpu-miner.js';
import { GetworkClient } from './miner/getwork-client.js';
import { RpcWork } from './miner/rpc-work.js';
import type { WorkSource } from './miner/work-source.js';
import { CliError, CliErrorCode } from './cli-error.js';

interface MinerFlags {
  daemonAddress: string;
  walletAddress: string;
  threads: string;
  rpc?: boolean;
  crypto: (typeof CRYPTO_IMPLS)[number];
  reportEvery: string;
  logLevel: LogLevel;
}

function count(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new CliError(CliErrorCode.BadArgument, `${flag} must be a whole number from ${min} to ${max}, got ${text}`);
  return value;
}

export function minerCommand(): Command {
  return new Command('miner')
    .description(COMMAND_SUMMARIES.miner)
    .requiredOption(
      '--daemon-address <host:port>',
      "the daemon's getwork server (testnet: 127.0.0.1:40400), or with --rpc its JSON-RPC address",
    )
    .requiredOption('--wallet-address <address>', 'registered address the rewards go to')
    .option('--threads <n>', 'mining threads', '1')
    .option('--rpc', 'poll NODE.GetBlockTemplate and submit with NODE.SubmitBlock instead of getwork')
    .addOption(
      new Option('--crypto <impl>', 'hash implementation (auto: native when built)')
        .choices(CRYPTO_IMPLS)
        .default('auto'),
    )
    .option('--report-every <seconds>', 'seconds between status lines', '5')
    .addOption(new Option('--log-level <level>', 'log verbosity').choices(LOG_LEVELS).default('info'))
    .action(async (flags: MinerFlags) => {
      const threads = count(flags.threads, '--threads', 1, 256);
      const reportEveryMs = count(flags.reportEvery, '--report-every', 1, 3600) * 1000;
      const logger = createLogger(flags.logLevel, undefined, 'miner');
      const source: WorkSource = flags.rpc
        ? new RpcWork(flags.daemonAddress, flags.walletAddress, logger)
        : new GetworkClient(flags.daemonAddress, flags.walletAddress, logger);
      const status = (rate: number): string => {
        const { jobs, accepted, rejected, blocks } = source.counts;
        return `${rate.toFixed(1)} H/s on ${threads} thread(s), jobs ${jobs}, miniblocks accepted ${accepted} rejected ${rejected}, blocks ${blocks}`;
      };
      const miner = new CpuMiner({
        threads,
        impl: flags.crypto,
        logger,
        reportEveryMs,
        onReport: (rate) => logger.info(status(rate)),
        nextJob: async () => source.current(),
        submit: async (jobId, blob) => source.submit(jobId, blob),
      });
      await miner.start();
      logger.info(
        `mining for ${flags.walletAddress} on ${threads} thread(s) (${flags.crypto} hash), work from ${flags.daemonAddress}${flags.rpc ? ' by JSON-RPC' : ' by getwork'}`,
      );
      const stopping = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      try {
        await Promise.race([source.run(() => void miner.refresh()), stopping]);
      } finally {
        source.stop();
        await miner.stop();
        logger.info(`stopped: ${status(0).replace(/^[\d.]+ H\/s on /, '')}`);
      }
    });
}
