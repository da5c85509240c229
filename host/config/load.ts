/**
 * Builds the effective configuration: the network's defaults, then the optional JSON config file, then the
 * command-line flags. The network itself is chosen first (flag, else file, else mainnet) because the other defaults
 * depend on it.
 */
import { readFileSync } from 'node:fs';
import { defaultConfig } from './defaults.js';
import { ConfigError, ConfigErrorCode, checkConfigValue, type UmbraConfig } from './schema.js';
import type { NetworkName } from '../../protocol/network.js';

export interface ConfigSources {
  /** Path of a JSON config file (an object of config keys), if any. */
  file?: string | undefined;
  /** Values from command-line flags, already mapped to config keys; `undefined` values are ignored. */
  flags?: Partial<Record<string, unknown>>;
  /** The network to assume when neither flags nor file name one. */
  defaultNetwork?: NetworkName;
}

export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      ConfigErrorCode.BadFile,
      `cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      ConfigErrorCode.BadFile,
      `config file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(ConfigErrorCode.BadFile, `config file ${path} must hold a JSON object of config keys`);
  }
  return parsed as Record<string, unknown>;
}

function definedEntries(values: Partial<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(values).filter(([, value]) => value !== undefined);
}

export function loadConfig(sources: ConfigSources): UmbraConfig {
  const fileValues = sources.file ? readConfigFile(sources.file) : {};
  const flagValues = sources.flags ?? {};
  const layers: [string, [string, unknown][]][] = [
    [sources.file ? `config file ${sources.file}` : 'config file', definedEntries(fileValues)],
    ['command line', definedEntries(flagValues)],
  ];
  // Validate every key of every layer before using any of them, so the first bad key is reported.
  for (const [source, entries] of layers) {
    for (const [key, value] of entries) checkConfigValue(key, value, source);
  }
  const network = (flagValues['network'] ??
    fileValues['network'] ??
    sources.defaultNetwork ??
    'mainnet') as NetworkName;
  const config: Record<string, unknown> = { ...defaultConfig(network) };
  for (const [source, entries] of layers) {
    for (const [key, value] of entries) config[key] = checkConfigValue(key, value, source);
  }
  return config as unknown as UmbraConfig;
}
