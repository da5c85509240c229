/** The `wallet` plugin only runs with an open wallet to serve. */
import t from 'tap';
import { composeApp } from '../../../host/app.js';
import { WALLET_RPC_SERVER } from '../../../host/rpc/servers.js';
import { loadConfig } from '../../../host/config/load.js';
import { createLogger } from '../../../host/logger.js';

t.test('without a wallet in the container the plugin says how to run it', async (t) => {
  const config = loadConfig({
    flags: { network: 'simulator', store: 'memory', plugins: ['wallet'], rpcBind: '127.0.0.1:0' },
  });
  await t.rejects(
    composeApp(config, { logger: createLogger('error', () => {}), rpcServer: WALLET_RPC_SERVER }),
    /run it with 'umbra wallet open --rpc-server'/,
  );
});
