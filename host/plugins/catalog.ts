/**
 * Where plugins come from. A configured plugin name is either one of Umbra's own plugins (below) or a path to a
 * module (starting with `.` or `/`, resolved from the working directory) whose default export is a Plugin.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Plugin } from '../plugin.js';
import { PluginErrorCode, PluginLoadError } from './plugin-error.js';

type PluginModule = { default: Plugin };

const BUILT_IN: Readonly<Record<string, () => Promise<PluginModule>>> = {
  consensus: () => import('../../plugins/consensus/index.js'),
  dvm: () => import('../../plugins/dvm/index.js'),
  explorer: () => import('../../plugins/explorer/index.js'),
  mempool: () => import('../../plugins/mempool/index.js'),
  metrics: () => import('../../plugins/metrics/index.js'),
  mining: () => import('../../plugins/mining/index.js'),
  p2p: () => import('../../plugins/p2p/index.js'),
  simulator: () => import('../../plugins/simulator/index.js'),
  'rpc-http': () => import('../../plugins/rpc-http/index.js'),
  'rpc-ws': () => import('../../plugins/rpc-ws/index.js'),
  wallet: () => import('../../plugins/wallet/index.js'),
  'web-wallet': () => import('../../plugins/web-wallet/index.js'),
};

/** The plugin that serves each RPC transport named in config `transports`. */
export const TRANSPORT_PLUGINS = { http: 'rpc-http', ws: 'rpc-ws' } as const;

export function builtInPluginNames(): string[] {
  return Object.keys(BUILT_IN);
}

const isNameList = (value: unknown): boolean => Array.isArray(value) && value.every((name) => typeof name === 'string');

function isPlugin(value: unknown): value is Plugin {
  if (typeof value !== 'object' || value === null) return false;
  const plugin = value as Record<keyof Plugin, unknown>;
  return (
    typeof plugin.name === 'string' &&
    isNameList(plugin.requires) &&
    (plugin.optional === undefined || isNameList(plugin.optional)) &&
    (plugin.provides === undefined || isNameList(plugin.provides)) &&
    typeof plugin.register === 'function'
  );
}

export async function importPlugin(spec: string): Promise<Plugin> {
  const isPath = spec.startsWith('.') || spec.startsWith('/');
  const load = isPath ? () => import(pathToFileURL(resolve(spec)).href) as Promise<PluginModule> : BUILT_IN[spec];
  if (!load)
    throw new PluginLoadError(
      PluginErrorCode.UnknownPlugin,
      `unknown plugin '${spec}' (built-in plugins: ${builtInPluginNames().join(', ')}; or give a path to a plugin module)`,
    );
  let module: PluginModule;
  try {
    module = await load();
  } catch (error) {
    throw new PluginLoadError(PluginErrorCode.CannotLoad, `cannot load plugin '${spec}': ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!isPlugin(module.default))
    throw new PluginLoadError(
      PluginErrorCode.NotAPlugin,
      `plugin '${spec}' does not default-export a plugin ({ name, requires, optional?, provides?, register })`,
    );
  return module.default;
}
