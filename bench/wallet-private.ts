/**
 * What a wallet that trusts no daemon pays: `header-pow-verify`, the milliseconds per miniblock its light client
 * takes to check a testnet chain's headers — every rule, the proof of work hashed natively on every core — synced
 * from a daemon in this process (median of ROUNDS syncs of a fresh wallet over the same BLOCKS blocks).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../core-native/ts/index.js';
import { PowCheckPool } from '../core-native/ts/pow-check-pool.js';
import { MINIBLOCKS_PER_BLOCK } from '../protocol/miniblock.js';
import { LightClient } from '../wallet/light-client/light-client.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import { headerDaemon, servedChain } from '../test/helpers/header-daemon.js';
import { runBench } from './harness.js';

const BLOCKS = 8;
const ROUNDS = 5;

const core = await loadCore({ impl: 'native' });
const chain = await openTestChain({ network: 'testnet', core });
for (let i = 0; i < BLOCKS; i++) await mineBlock(chain);
const daemon = await headerDaemon((bytes) => core.sha3_256(bytes));
daemon.serve(servedChain(chain));
const pool = new PowCheckPool({ impl: 'native' });
const dir = mkdtempSync(join(tmpdir(), 'umbra-bench-wallet-private-'));

const perMiniblock: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const client = LightClient.open({ core, network: 'testnet', path: join(dir, `${round}.headers`), pool });
    const started = performance.now();
    await client.sync(daemon.client);
    perMiniblock.push((performance.now() - started) / (BLOCKS * MINIBLOCKS_PER_BLOCK));
  }
} finally {
  await pool.close();
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
}
const median = [...perMiniblock].sort((x, y) => x - y)[Math.floor(ROUNDS / 2)]!;
runBench('wallet-private', [{ case: 'header-pow-verify', impl: 'native', unit: 'ms', value: median }]);
