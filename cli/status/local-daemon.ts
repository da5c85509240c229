/**
 * `umbra status` with no daemon named: the local daemon of mainnet, testnet or the simulator on its default RPC port,
 * whichever answers first in that order. One that stops answering is looked for again, so `--watch` finds a daemon
 * started later on another network; when none answers, the error names every port tried and the flags that pick one.
 */
import { isDaemonUnreachable } from '../../wallet/daemon-reachability.js';
import { DaemonClient, DaemonUnavailableError } from '../../wallet/daemon-client.js';
import { NETWORK_NAMES, NETWORKS } from '../../protocol/network.js';

/** What the status reads from a daemon. */
export type StatusSource = Pick<DaemonClient, 'call' | 'url'>;

/** Each network's local daemon in words, and the flag that names it. */
const LOCAL = {
  mainnet: { whose: "mainnet's", flag: '--network mainnet' },
  testnet: { whose: "testnet's", flag: '--testnet' },
  simulator: { whose: "the simulator's", flag: '--network simulator' },
} as const;

export class LocalDaemon implements StatusSource {
  private readonly candidates = NETWORK_NAMES.map((network) => ({
    network,
    client: new DaemonClient(`127.0.0.1:${NETWORKS[network].defaultRpcPort}`),
  }));
  private found?: DaemonClient;
  private finding?: Promise<DaemonClient>;

  /** The daemon that answered last (mainnet's until one has). */
  get url(): string {
    return (this.found ?? this.candidates[0]!.client).url;
  }

  async call<T>(method: string, params?: unknown): Promise<T> {
    const client = await this.pick();
    try {
      return await client.call<T>(method, params);
    } catch (error) {
      if (isDaemonUnreachable(error) && this.found === client) this.found = undefined;
      throw error;
    }
  }

  private pick(): Promise<DaemonClient> {
    if (this.found) return Promise.resolve(this.found);
    this.finding ??= this.find().finally(() => (this.finding = undefined));
    return this.finding;
  }

  private async find(): Promise<DaemonClient> {
    for (const { client } of this.candidates) {
      try {
        await client.call('NODE.Ping');
      } catch (error) {
        // A daemon that answers with an error is there all the same.
        if (isDaemonUnreachable(error)) continue;
      }
      this.found = client;
      return client;
    }
    const tried = this.candidates.map(
      ({ network, client }) => `${LOCAL[network].whose} at ${new URL(client.url).host} (${LOCAL[network].flag})`,
    );
    throw new DaemonUnavailableError(
      `no local daemon answers: not ${tried.slice(0, -1).join(', ')} nor ${tried.at(-1)}`,
    );
  }
}
