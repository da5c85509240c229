/** In-process simulator daemons with P2P on loopback, for the p2p tests and bench: start, mine, wait. */
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { composeApp, type App } from '../../host/app.js';
import { loadConfig } from '../../host/config/load.js';
import { createLogger } from '../../host/logger.js';
import { toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { premineKey } from '../../protocol/premine.js';
import type { MiningService } from '../../plugins/mining/mining-service.js';
import type { P2pNode } from '../../plugins/p2p/p2p-node.js';

export interface TestNode {
  name: string;
  app: App;
  chain: ChainService;
  p2p: P2pNode;
  mining: MiningService;
  /** `127.0.0.1:<port>` of its P2P listener. */
  address: string;
  logLines: string[];
}

/** Starts a simulator daemon (memory store, no RPC transports) listening for P2P on a free loopback port. */
export async function startNode(name: string, flags: Record<string, unknown> = {}, t?: Test): Promise<TestNode> {
  const logLines: string[] = [];
  const logger = createLogger('debug', (line) => logLines.push(`${name} ${line}`));
  const config = loadConfig({
    flags: {
      network: 'simulator',
      store: 'memory',
      rpcBind: '127.0.0.1:0',
      transports: [],
      p2pBind: '127.0.0.1:0',
      ...flags,
    },
  });
  const app = await composeApp(config, { logger });
  await app.start();
  t?.teardown(() => app.stop());
  const services = app.container.cradle;
  // The tests read the concrete plugin objects (the P2P port, the miniblock pool), not just the service interfaces.
  const p2p = services.p2p as P2pNode;
  return {
    name,
    app,
    p2p,
    logLines,
    chain: services.chain,
    mining: services.mining as MiningService,
    address: `127.0.0.1:${p2p.port}`,
  };
}

/** Mines `count` blocks on a node through its templates (the simulator checks no proof of work). */
export async function mine(node: TestNode, count = 1): Promise<void> {
  const key = premineKey(node.app.container.cradle.core, 'simulator');
  for (let mined = 0; mined < count; ) {
    const job = node.mining.template(key);
    if ((await node.mining.submit(job.id, job.blob)).block_found) mined++;
  }
}

/** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
export async function waitUntil(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const topOf = (node: TestNode): string => toHex(node.chain.top.id);

/** Every node has the same top block. */
export const converged = (...nodes: TestNode[]): boolean => nodes.every((node) => topOf(node) === topOf(nodes[0]!));

/** The daemon RPC URL of a node started with `transports: ['http']`. */
export function rpcUrl(node: TestNode): string {
  const server = node.app.container.cradle.httpServers.get('daemon')!;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
