/** The built-in CPU miner's hash rate: measured over each report period, 0 before the first and after it stops. */
import t from 'tap';
import { createLogger } from '../../../host/logger.js';
import { CpuMiner } from '../../../host/mining/cpu-miner.js';

t.test('the hash rate is what the workers hashed over the last report period', async (t) => {
  const lines: string[] = [];
  const miner = new CpuMiner({
    threads: 1,
    impl: 'auto',
    logger: createLogger('info', (line) => lines.push(line)),
    // A target no hash meets: the worker hashes for the whole test.
    nextJob: async () => ({ jobId: 'job', blob: new Uint8Array(48), difficulty: 2n ** 255n }),
    submit: async () => {
      t.fail('nothing can be found');
    },
    reportEveryMs: 300,
  });
  t.equal(miner.hashRate, 0, 'before it starts');
  await miner.start();
  t.teardown(() => miner.stop());
  while (miner.hashRate === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(miner.hashRate > 0, `hashing (${miner.hashRate.toFixed(1)} H/s)`);
  t.ok(miner.hashCount > 0, 'the hashes are counted');
  t.match(lines.join('\n'), /mining on 1 thread\(s\): [\d.]+ H\/s/, 'the log line reports the same rate');
  await miner.stop();
  t.equal(miner.hashRate, 0, 'stopped: no rate');
});
