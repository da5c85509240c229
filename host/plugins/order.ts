/** Orders plugins so that each comes after everything it requires; a missing or cyclic dependency is an error. */
import type { Plugin } from '../plugin.js';
import { PluginLoadError } from './catalog.js';

export function orderPlugins(plugins: readonly Plugin[]): Plugin[] {
  const byName = new Map<string, Plugin>();
  for (const plugin of plugins) {
    if (byName.has(plugin.name)) throw new PluginLoadError(`plugin '${plugin.name}' is configured twice`);
    byName.set(plugin.name, plugin);
  }
  const ordered: Plugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: Plugin, path: string[]): void => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(plugin.name)), plugin.name];
      throw new PluginLoadError(`plugin dependency cycle: ${cycle.join(' → ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.requires) {
      const required = byName.get(dependency);
      if (!required) throw new PluginLoadError(`plugin '${plugin.name}' requires '${dependency}', which is not configured (add it to plugins)`);
      visit(required, [...path, plugin.name]);
    }
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
