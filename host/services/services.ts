/**
 * Every service a container can hold, by name and type: the base services the host registers (base.ts), then those
 * plugins provide. A plugin declares the names it registers in `provides`; services a configuration may lack are
 * read with `optionalService`. A layer above the kernel adds its own service by augmenting `Services` from its own
 * folder (the wallet library adds `wallet`), so the kernel never imports upward.
 */
import { asValue, type AwilixContainer } from 'awilix';
import type { BaseServices } from './base.js';
import type { ChainService } from './chain.js';
import type { InfoContributions } from './chain-info.js';
import type { ContractVm } from './contract-vm.js';
import type { HttpServers } from './http-servers.js';
import type { MiniblockPoolService } from './miniblocks.js';
import type { MinersService } from './miners.js';
import type { MiningService } from './mining.js';
import type { P2pService } from './p2p.js';
import type { SimulatorService } from './simulator.js';
import type { SnapshotService } from './snapshots.js';
import type { TxPoolService } from './tx-pool.js';

export interface Services extends BaseServices {
  /** `consensus`: the chain. */
  chain: ChainService;
  /** `consensus`: GetInfo's figures from other plugins. */
  chainInfo: InfoContributions;
  /** `consensus`: state snapshots for fast sync. */
  snapshots: SnapshotService;
  /** `mempool`: the transaction pool. */
  txPool: TxPoolService;
  /** `mining`: the pool of miniblocks for the next block, as P2P shares it. */
  miniblocks: MiniblockPoolService;
  /** `mining`: block templates and submission. */
  mining: MiningService;
  /** `mining`: the miners connected to its getwork server. */
  miners: MinersService;
  /** `dvm`: the contract VM. */
  contractVm: ContractVm;
  /** `p2p`: the peer-to-peer node. */
  p2p: P2pService;
  /** `rpc-http`: the HTTP server of each RPC endpoint. */
  httpServers: HttpServers;
  /** `simulator`: on-demand blocks and funded accounts. */
  simulator: SimulatorService;
}

export type ServiceName = keyof Services;

export type ServiceContainer = AwilixContainer<Services>;

/** Registers services under their names; unlike awilix's own `register`, each value is checked against Services. */
export function provideServices(container: ServiceContainer, services: Partial<Services>): void {
  container.register(Object.fromEntries(Object.entries(services).map(([name, value]) => [name, asValue(value)])));
}

/** A service the configured plugins may not provide (its plugin is not configured): undefined when absent. */
export function optionalService<Name extends ServiceName>(
  container: ServiceContainer,
  name: Name,
): Services[Name] | undefined {
  return container.hasRegistration(name) ? container.resolve(name) : undefined;
}
