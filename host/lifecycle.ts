/** Runs an app until SIGINT or SIGTERM, then stops it gracefully; a second signal exits at once. */
import type { App } from './app.js';

export async function runUntilSignalled(app: Pick<App, 'start' | 'stop' | 'logger'>): Promise<void> {
  await app.start();
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
