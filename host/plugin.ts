import type { UmbraConfig } from './config/schema.js';
import type { ServiceContainer, ServiceName } from './services/services.js';

/**
 * What a plugin runs once the whole app is registered: `start` opens its sockets and timers (in dependency order),
 * `stop` closes them (in reverse order). Both close over the objects `register` built, so every app keeps its own.
 */
export interface PluginLifecycle {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/**
 * The contract every plugin fulfils (docs/architecture.md). `register` builds the plugin's services and adds them to
 * the container under the names of `provides`; nothing may run yet (no sockets, no timers). It returns the plugin's
 * lifecycle, if it has anything to start. Plugins never import each other: they reach one another through the
 * services declared in host/services/services.ts.
 */
export interface Plugin {
  /** Unique plugin name, as used in config and in other plugins' `requires` and `optional`. */
  readonly name: string;
  /** Plugins that must be configured, and are registered and started before this one. */
  readonly requires: readonly string[];
  /** Plugins this one uses when they are configured; then they are registered and started before it. */
  readonly optional?: readonly string[];
  /** The services `register` adds to the container; start-up fails when one is missing. */
  readonly provides?: readonly ServiceName[];
  register(container: ServiceContainer, config: UmbraConfig): void | PluginLifecycle | Promise<void | PluginLifecycle>;
}
