import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { encodeAddress } from '../../../protocol/address.js';
import { toHex } from '../../../protocol/bytes.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { premineKey } from '../../../protocol/premine.js';
import { MemoryStore } from '../../../host/storage/memory-store.js';
import { ChainPruner, pruningPolicy } from '../../../plugins/consensus/chain-pruner.js';
import { HistoryErrorCode, HistoryNotHeld } from '../../../plugins/consensus/history-error.js';
import { putHistoryFloor } from '../../../plugins/consensus/state/history-floor.js';
import { createLogger } from '../../../host/logger.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { reachableNodeCount, storedNodeCount } from '../../helpers/state-history.js';

const core = await loadCore();
const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
const SIMULATOR_PLUGINS = ['dvm', 'consensus', 'mempool', 'mining', 'simulator'];

/** Calls a method expected to fail, and returns its error. */
const failure = (url: string, method: string, params: unknown): Promise<{ code: number; message: string }> =>
  rpcCall(url, method, params).then(
    () => ({ code: 0, message: 'succeeded' }),
    (error: { code: number; message: string }) => error,
  );

t.test('the policy: archive by default, pruning on a fast-synced node, --prune-depth, --archive', async (t) => {
  const off = pruningPolicy({ archive: false, pruneDepth: 0, pruneBlocks: false });
  t.equal(off.depth(0n), null, 'a node with history from genesis keeps everything');
  t.equal(off.depth(5000n), 10_000n, 'a fast-synced node prunes at the default depth');
  t.equal(pruningPolicy({ archive: false, pruneDepth: 64, pruneBlocks: false }).depth(0n), 64n);
  t.equal(pruningPolicy({ archive: true, pruneDepth: 0, pruneBlocks: false }).depth(5000n), null, '--archive never');
  t.throws(() => pruningPolicy({ archive: true, pruneDepth: 0, pruneBlocks: true }), /cannot be combined/);
});

t.test('pruning a chain keeps every root from the floor on and drops the rest', async (t) => {
  const store = new MemoryStore();
  const test = await openTestChain({ store, core });
  for (let i = 0; i < 40; i++) await mineBlock(test);
  const before = await storedNodeCount(test.accounts.db);
  const logger = createLogger('error');
  const policy = pruningPolicy({ archive: false, pruneDepth: 11, pruneBlocks: true });
  const pruner = new ChainPruner({ chain: test.chain, stateDb: test.accounts.db, policy, logger });
  pruner.start();
  await pruner.settled();
  const chain = test.chain;
  const floor = chain.historyFloor();
  t.equal(floor, chain.top.height - 11n, 'the floor is the top minus the depth');
  t.equal(chain.blocks.blockFloor(), floor, 'block bodies are held from the floor on');
  for (let topo = floor; topo <= chain.top.height; topo++) {
    const meta = chain.metaAtTopo(topo)!;
    const state = chain.stateAt(meta);
    t.equal(toHex(test.accounts.snapshot(meta.stateVersion).root), toHex(meta.stateRoot), `root at ${topo}`);
    t.ok(state.getBalance(new Uint8Array(32), test.premine), `the premine reads at ${topo}`);
    t.ok(chain.heldBlock(meta), `the block body at ${topo} is held`);
  }
  const below = chain.metaAtTopo(floor - 1n)!;
  t.throws(() => chain.stateAt(below), new HistoryNotHeld(HistoryErrorCode.StateNotHeld, floor - 1n, floor));
  t.throws(() => chain.heldBlock(below), { code: HistoryErrorCode.BlockNotHeld });
  const after = await storedNodeCount(test.accounts.db);
  t.ok(after < before, `fewer state nodes (${before} → ${after})`);
  t.equal(after, await reachableNodeCount(test.accounts.db, chain.metaAtTopo(floor)!.stateVersion));
  // Blocks keep coming on the pruned state, and the floor follows once it can rise by a quarter of the depth.
  for (let i = 0; i < 4; i++) await mineBlock(test);
  await pruner.settled();
  t.equal(chain.historyFloor(), chain.top.height - 11n);
  await pruner.stop();
});

t.test('a fast-synced node (history floor above 0) prunes at the default depth only when far enough', async (t) => {
  const store = new MemoryStore();
  const test = await openTestChain({ store, core });
  for (let i = 0; i < 12; i++) await mineBlock(test);
  const batch = store.batch();
  putHistoryFloor(batch, 3n);
  await batch.write();
  const policy = pruningPolicy({ archive: false, pruneDepth: 0, pruneBlocks: false });
  const pruner = new ChainPruner({
    chain: test.chain,
    stateDb: test.accounts.db,
    policy,
    logger: createLogger('error'),
  });
  pruner.start();
  await pruner.settled();
  t.equal(test.chain.historyFloor(), 3n, 'nothing to prune yet');
  await pruner.stop();
});

t.test('a pruning daemon answers old topoheights with the first one it holds', async (t) => {
  const { url } = await startTestApp(t, {
    network: 'simulator',
    plugins: [...SIMULATOR_PLUGINS, 'explorer'],
    automine: false,
    pruneDepth: 11,
    pruneBlocks: true,
  });
  await rpcCall(url, 'SIMULATOR.Mine', { count: 40 });
  // Pruning runs in the background after the blocks.
  let error = await failure(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight: 1 });
  while (error.code === 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    error = await failure(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight: 1 });
  }
  t.equal(error.code, -32098);
  const floor = Number(/keeps the state from topoheight (\d+) on/.exec(error.message)?.[1]);
  t.match(error.message, /^topoheight 1 is not held: this node keeps the state from topoheight \d+ on/);
  t.ok(floor > 1 && floor <= 40 - 11, `the floor ${floor}`);

  const held = await rpcCall(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight: floor });
  const block = await rpcCall(url, 'NODE.GetBlock', { height: floor });
  t.equal(held.treehash, JSON.parse(block.json).state_root, "the state at the floor answers, with its block's root");
  const scid = toHex(NAME_SERVICE_SCID);
  for (const [method, params] of [
    ['NODE.GetSC', { scid, topoheight: floor - 1 }],
    ['NODE.NameToAddress', { name: 'nobody', topoheight: floor - 1 }],
  ] as const) {
    const refused = await failure(url, method, params);
    t.equal(refused.code, -32098, method);
    t.match(
      refused.message,
      `topoheight ${floor - 1} is not held: this node keeps the state from topoheight ${floor} on`,
    );
  }
  t.ok(await rpcCall(url, 'NODE.GetSC', { scid, topoheight: floor }), 'GetSC at the floor answers');
  for (const [method, params] of [
    ['NODE.GetBlockHeaderByTopoHeight', { topoheight: 2 }],
    ['NODE.GetBlock', { height: 2 }],
  ] as const) {
    const refused = await failure(url, method, params);
    t.equal(refused.code, -32098, method);
    t.match(
      refused.message,
      /^topoheight 2 is not held: this node keeps the block bodies and transactions from topoheight \d+ on/,
    );
  }
  const base = url.replace(/\/json_rpc$/, '');
  for (const path of ['/explorer/block/2', '/explorer/block/2?format=json']) {
    const page = await fetch(`${base}${path}`);
    t.equal(page.status, 404, `${path}: a pruned block is not found here`);
    t.match(await page.text(), /topoheight 2 is not held: this node keeps the block bodies/, `${path} says why`);
  }
  const home = await fetch(`${base}/explorer/?format=json`);
  t.equal(home.status, 200, 'the home page shows what is held');
  await rpcCall(url, 'SIMULATOR.Mine', { count: 2 });
  t.ok(await rpcCall(url, 'NODE.GetEncryptedBalance', { address: premine }), 'the chain goes on');
});

t.test('an archive daemon answers every topoheight as before', async (t) => {
  const { url } = await startTestApp(t, {
    network: 'simulator',
    plugins: SIMULATOR_PLUGINS,
    automine: false,
    archive: true,
  });
  await rpcCall(url, 'SIMULATOR.Mine', { count: 30 });
  t.ok(await rpcCall(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight: 1 }));
  t.ok(await rpcCall(url, 'NODE.GetBlock', { height: 1 }));
});
