/**
 * Orders plugins so that each comes after everything it requires and every configured plugin it names as optional;
 * a missing required plugin or a cycle is an error, an optional plugin that is not configured is ignored.
 */
import type { Plugin } from '../plugin.js';
import { PluginErrorCode, PluginLoadError } from './plugin-error.js';

export function orderPlugins(plugins: readonly Plugin[]): Plugin[] {
  const byName = new Map<string, Plugin>();
  for (const plugin of plugins) {
    if (byName.has(plugin.name))
      throw new PluginLoadError(PluginErrorCode.ConfiguredTwice, `plugin '${plugin.name}' is configured twice`);
    byName.set(plugin.name, plugin);
  }
  const dependenciesOf = (plugin: Plugin): Plugin[] => {
    const required = plugin.requires.map((name) => {
      const dependency = byName.get(name);
      if (!dependency)
        throw new PluginLoadError(
          PluginErrorCode.MissingDependency,
          `plugin '${plugin.name}' requires '${name}', which is not configured (add it to plugins)`,
        );
      return dependency;
    });
    const optional = (plugin.optional ?? []).flatMap((name) => byName.get(name) ?? []);
    return [...required, ...optional];
  };
  const ordered: Plugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: Plugin, path: string[]): void => {
    const seen = state.get(plugin.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(plugin.name)), plugin.name];
      throw new PluginLoadError(PluginErrorCode.DependencyCycle, `plugin dependency cycle: ${cycle.join(' → ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of dependenciesOf(plugin)) visit(dependency, [...path, plugin.name]);
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
