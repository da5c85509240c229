/** The shipped checkpoints: each network's list starts with the genesis block the node writes, and is in height order. */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { toHex } from '../../../protocol/bytes.js';
import { CHECKPOINTS, genesisCheckpoint, latestCheckpoint } from '../../../protocol/chain/checkpoints.js';
import { NETWORK_NAMES } from '../../../protocol/network.js';
import { openTestChain } from '../../helpers/chain.js';

const core = await loadCore();
for (const network of NETWORK_NAMES) {
  t.test(network, async (t) => {
    const { chain } = await openTestChain({ network, core });
    const genesis = genesisCheckpoint(network);
    t.equal(genesis.height, 0n);
    t.equal(toHex(genesis.id), toHex(chain.metaAtTopo(0n)!.id), 'the genesis block the node writes');
    const heights = CHECKPOINTS[network].map((checkpoint) => checkpoint.height);
    t.same(
      heights,
      [...heights].sort((a, b) => (a < b ? -1 : 1)),
      'in height order',
    );
    t.equal(latestCheckpoint(network), CHECKPOINTS[network].at(-1));
  });
}
