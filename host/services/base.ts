/**
 * The services the host puts in every container before plugins register. Plugins resolve them by these names
 * (awilix PROXY injection: a factory receives the cradle and reads `cradle.store`, `cradle.logger`, ...).
 */
import type { Core } from '../../core-native/ts/core.js';
import type { UmbraConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import type { NetworkParams } from '../../protocol/network.js';
import type { RpcEndpoints } from '../rpc/endpoint.js';
import type { KeyValueStore } from '../storage/kv-store.js';
import type { NodeClock } from './clock.js';

export interface BaseServices {
  config: UmbraConfig;
  logger: Logger;
  network: NetworkParams;
  /** The cryptography core the config selected (native or fallback). */
  core: Core;
  store: KeyValueStore;
  /** The RPC servers of this process; the daemon's is named `daemon`. */
  rpcEndpoints: RpcEndpoints;
  /** The clock block timestamps are checked and made against (the simulator moves it). */
  clock: NodeClock;
}
