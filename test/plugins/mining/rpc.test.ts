/** The mining methods' refusals through the daemon's JSON-RPC: the service's reasons, answered with -32098. */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { meetsTarget } from '../../../core-native/ts/pow-target.js';
import { encodeAddress } from '../../../host/protocol/address.js';
import { fromHex, toHex } from '../../../host/protocol/bytes.js';
import { NETWORKS } from '../../../host/protocol/network.js';
import { premineKey } from '../../../host/protocol/premine.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';

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
