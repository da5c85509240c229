import { UmbraError } from '../../core-native/ts/errors.js';

/** Why a configured plugin set cannot be loaded, ordered or registered. */
export const PluginErrorCode = {
  UnknownPlugin: 'plugin.unknown',
  CannotLoad: 'plugin.cannot-load',
  NotAPlugin: 'plugin.not-a-plugin',
  ConfiguredTwice: 'plugin.configured-twice',
  MissingDependency: 'plugin.missing-dependency',
  DependencyCycle: 'plugin.dependency-cycle',
  MissingService: 'plugin.missing-service',
} as const;
export type PluginErrorCode = (typeof PluginErrorCode)[keyof typeof PluginErrorCode];

export class PluginLoadError extends UmbraError<PluginErrorCode> {
  override readonly name = 'PluginLoadError';
}
