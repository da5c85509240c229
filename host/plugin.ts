import type { AwilixContainer } from 'awilix';
import type { UmbraConfig } from './config/schema.js';

/**
 * The contract every plugin fulfils. `register` adds the plugin's services to the container (nothing may run
 * yet); `start` runs once every plugin is registered, in dependency order; `stop` runs in reverse order.
 * Plugins never import each other: they reach one another through the services declared in `host/services/`.
 */
export interface Plugin {
  /** Unique plugin name, as used in config and in other plugins' `requires`. */
  readonly name: string;
  /** Names of the plugins that must be registered and started before this one. */
  readonly requires: readonly string[];
  register(container: AwilixContainer, config: UmbraConfig): void | Promise<void>;
  start?(container: AwilixContainer): void | Promise<void>;
  stop?(container: AwilixContainer): void | Promise<void>;
}
