/** A small leveled logger writing one line per event to stderr: time, level, source, message. */
import { LOG_LEVELS } from './config/schema.js';

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A logger whose lines are tagged with `source` (e.g. a plugin name). */
  child(source: string): Logger;
}

export type LogSink = (line: string) => void;

const writeToStderr: LogSink = (line) => process.stderr.write(line + '\n');

export function createLogger(level: LogLevel, sink: LogSink = writeToStderr, source = 'umbra'): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel, message: string): void => {
    if (LOG_LEVELS.indexOf(at) < threshold) return;
    sink(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} [${source}] ${message}`);
  };
  return {
    debug: (message) => emit('debug', message),
    info: (message) => emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message) => emit('error', message),
    child: (child) => createLogger(level, sink, child),
  };
}
