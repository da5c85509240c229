/**
 * Runs an app until SIGINT or SIGTERM, then stops it gracefully; a second signal exits at once. While it runs, a
 * promise rejection nothing awaited (a library's stream torn down by a peer, say) is logged with its stack instead of
 * ending the process: one peer's misbehaviour must not stop a node.
 */
import type { App } from './app.js';
import { releaseStartupGarbage } from './startup-garbage.js';

/** Logs an unawaited rejection on `logger`, the node going on. */
export const loggingRejection =
  (logger: Pick<App['logger'], 'error'>) =>
  (reason: unknown): void =>
    logger.error(
      `a promise rejection nothing awaited (the node goes on): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );

export async function runUntilSignalled(app: Pick<App, 'start' | 'stop' | 'logger'>): Promise<void> {
  await app.start();
  setImmediate(releaseStartupGarbage);
  const onRejection = loggingRejection(app.logger);
  process.on('unhandledRejection', onRejection);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        app.logger.warn(`${signal} again: exiting without waiting`);
        process.exit(1);
      }
      stopping = true;
      app.logger.info(`${signal} received: stopping`);
      app.stop().then(
        () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          process.off('unhandledRejection', onRejection);
          app.logger.info('stopped');
          resolve();
        },
        (error: Error) => {
          app.logger.error(`stop failed: ${error.message}`);
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
