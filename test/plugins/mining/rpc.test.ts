/**
 * The mining methods' refusals through the daemon's JSON-RPC: the service's reasons, answered with -32098; a block
 * whose parent is unknown is answered as waiting, never as found.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { meetsTarget } from '../../../core-native/ts/pow-target.js';
import { encodeAddress } from '../../../protocol/address.js';
import { decodeBlock } from '../../../protocol/block.js';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { NETWORKS } from '../../../protocol/network.js';
import { premineKey } from '../../../protocol/premine.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { mineBlock, openTestChain, type TestChain } from '../../helpers/chain.js';

const core = await loadCore();

t.test('GetBlockTemplate and SubmitBlock refusals are application errors with the reason', async (t) => {
  const { url } = await startTestApp(t, { network: 'testnet' });
  const premine = encodeAddress('testnet', premineKey(core, 'testnet'));
  const job = await rpcCall(url, 'NODE.GetBlockTemplate', { wallet_address: premine });
  // A nonce whose hash misses the target.
  const bad = fromHex(job.blockhashing_blob);
  const difficulty = BigInt(job.difficulty);
  for (let nonce = 0; meetsTarget(core.powHash(bad), difficulty); nonce++)
    new DataView(bad.buffer).setUint32(44, nonce);
  await t.rejects(rpcCall(url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: toHex(bad) }), {
    code: -32098,
    message: `invalid proof of work: the miniblock does not meet difficulty ${difficulty}`,
  });
  await t.rejects(rpcCall(url, 'NODE.SubmitBlock', { jobid: 'nope', mbl_blob: job.blockhashing_blob }), {
    code: -32098,
    message: /^job nope not found/,
  });
  await t.rejects(rpcCall(url, 'NODE.SubmitBlock', { block_blob: '00' }), {
    code: -32098,
    message: /^block rejected: malformed block/,
  });

  const { G } = core.generators(NETWORKS.testnet.generatorDomain);
  const stranger = encodeAddress(
    'testnet',
    core.g1Compress(core.g1MulSecret(G, core.keccak256(new TextEncoder().encode('stranger')))),
  );
  await t.rejects(rpcCall(url, 'NODE.GetBlockTemplate', { wallet_address: stranger }), {
    code: -32098,
    message: 'miner address is not registered',
  });
});

t.test('SubmitBlock never answers OK for a block whose parent is unknown', async (t) => {
  const { url } = await startTestApp(t, { network: 'testnet' });
  const blobAt = (test: TestChain, height: bigint): string =>
    toHex(test.chain.blocks.getBlockBytes(test.chain.metaAtTopo(height)!.id)!);
  const simulator = await openTestChain({ core });
  await mineBlock(simulator);
  await mineBlock(simulator);
  await t.rejects(rpcCall(url, 'NODE.SubmitBlock', { block_blob: blobAt(simulator, 2n) }), {
    code: -32098,
    message: /^block rejected: miniblock \d does not meet its proof-of-work target \(difficulty 50\)$/,
  });

  const testnet = await openTestChain({ core, network: 'testnet' });
  await mineBlock(testnet);
  await mineBlock(testnet);
  const waiting = toHex(testnet.chain.top.id);
  await t.rejects(rpcCall(url, 'NODE.SubmitBlock', { block_blob: blobAt(testnet, 2n) }), {
    code: -32098,
    message: `block ${waiting} is not in the chain: its parent is unknown here; it is kept for 10 minutes and joins the chain if the parent arrives`,
  });
  t.match(await rpcCall(url, 'NODE.GetInfo', {}), { height: 0, alt_blocks_count: 1 });
  t.match(await rpcCall(url, 'NODE.SubmitBlock', { block_blob: blobAt(testnet, 1n) }), {
    status: 'OK',
    block_found: true,
  });
  t.match(await rpcCall(url, 'NODE.GetInfo', {}), { height: 2, top_block_hash: waiting, alt_blocks_count: 0 });
});

t.test('GetBlockTemplate with block: true returns the block being completed, for an ordinary job too', async (t) => {
  const { url } = await startTestApp(t, { network: 'testnet' });
  const premine = encodeAddress('testnet', premineKey(core, 'testnet'));
  const job = await rpcCall(url, 'NODE.GetBlockTemplate', { wallet_address: premine, block: true });
  t.equal(job.miniblocks, 0, 'an ordinary job: nothing pooled yet');
  const block = decodeBlock(fromHex(job.blocktemplate_blob));
  t.equal(block.height, 1n);
  t.same(block.miniblocks, []);
  t.equal(toHex(block.tips[0]!), job.prev_hash);
  const without = await rpcCall(url, 'NODE.GetBlockTemplate', { wallet_address: premine });
  t.notOk('blocktemplate_blob' in without, 'not asked: not sent');
});
