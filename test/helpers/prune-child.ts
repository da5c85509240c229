/**
 * A process that prunes a RocksDB state slowly, saying `wrote` after each batch, so a test can SIGKILL it mid-prune.
 * Arguments: <database directory> <first version to keep>.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RocksDbStore } from '../../host/storage/rocksdb-store.js';
import { StatePruner } from '../../plugins/consensus/state/state-pruner.js';
import { openStateDb } from './state-history.js';

const [directory, keepFrom] = process.argv.slice(2);
const store = await RocksDbStore.open(directory!);
const pruner = new StatePruner(openStateDb(store), { batchSize: 4 });
await pruner.prune(BigInt(keepFrom!), async (write) => {
  await write();
  process.stdout.write('wrote\n');
  await sleep(10);
});
process.stdout.write('done\n');
await store.close();
