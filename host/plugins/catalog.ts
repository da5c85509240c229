/**
 * Where plugins come from. A configured plugin name is either one of Umbra's own plugins (below) or a path to a
 * module (starting with `.` or `/`, resolved from the working directory) whose default export is a Plugin.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Plugin } from '../plugin.js';

type PluginModule = { default: Plugin };

const BUILT_IN: Readonly<Record<string, () => Promise<PluginModule>>> = {
  consensus: () => import('../../plugins/consensus/index.js'),
  dvm: () => import('../../plugins/dvm/index.js'),
  mempool: () => import('../../plugins/mempool/index.js'),
  mining: () => import('../../plugins/mining/index.js'),
  p2p: () => import('../../plugins/p2p/index.js'),
  simulator: () => import('../../plugins/simulator/index.js'),
  'rpc-http': () => import('../../plugins/rpc-http/index.js'),
  'rpc-ws': () => import('../../plugins/rpc-ws/index.js'),
  wallet: () => import('../../plugins/wallet/index.js'),
};

/** The plugin that serves each RPC transport named in config `transports`. */
export const TRANSPORT_PLUGINS = { http: 'rpc-http', ws: 'rpc-ws' } as const;

export function builtInPluginNames(): string[] {
  return Object.keys(BUILT_IN);
}

export class PluginLoadError extends Error {
  override readonly name = 'PluginLoadError';
}

function isPlugin(value: unknown): value is Plugin {
  const plugin = value as Plugin;
  return (
    typeof value === 'object' && value !== null && typeof plugin.name === 'string' && Array.isArray(plugin.requires) &&
    typeof plugin.register === 'function'
  );
}

export async function importPlugin(spec: string): Promise<Plugin> {
  const isPath = spec.startsWith('.') || spec.startsWith('/');
  const load = isPath ? () => import(pathToFileURL(resolve(spec)).href) as Promise<PluginModule> : BUILT_IN[spec];
  if (!load) throw new PluginLoadError(`unknown plugin '${spec}' (built-in plugins: ${builtInPluginNames().join(', ')}; or give a path to a plugin module)`);
  let module: PluginModule;
  try {
    module = await load();
  } catch (error) {
    throw new PluginLoadError(`cannot load plugin '${spec}': ${(error as Error).message}`);
  }
  if (!isPlugin(module.default)) throw new PluginLoadError(`plugin '${spec}' does not default-export a plugin ({ name, requires, register })`);
  return module.default;
}
