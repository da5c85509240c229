import { UmbraError } from '../errors.js';

/** Why a configured plugin set cannot be loaded, ordered or registered. */
export const PluginErrorCode = {
  UnknownPlugin: 'unknown-plugin',
  CannotLoad: 'cannot-load',
  NotAPlugin: 'not-a-plugin',
  ConfiguredTwice: 'configured-twice',
  MissingDependency: 'missing-dependency',
  DependencyCycle: 'dependency-cycle',
  MissingService: 'missing-service',
} as const;
export type PluginErrorCode = (typeof PluginErrorCode)[keyof typeof PluginErrorCode];

export class PluginLoadError extends UmbraError<PluginErrorCode> {
  override readonly name = 'PluginLoadError';
}
