/**
 * The `consensus` plugin: the chain and its RPC methods. So far it registers the daemon's liveness methods;
 * the chain store, validation and state come with the chain issue.
 */
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import { daemonEchoMethods } from './rpc/echo-ping.js';

const plugin: Plugin = {
  name: 'consensus',
  requires: [],
  register(container) {
    const daemon = (container.cradle as BaseServices).rpcEndpoints.get('daemon');
    for (const method of daemonEchoMethods) daemon.registry.add(method);
  },
};

export default plugin;
