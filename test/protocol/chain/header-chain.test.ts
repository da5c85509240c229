import t from 'tap';
import { decodeBlock, encodeBlock } from '../../../protocol/block.js';
import { toHex } from '../../../protocol/bytes.js';
import { encodeMiniblock } from '../../../protocol/miniblock.js';
import { meetsTarget } from '../../../core-native/ts/pow-target.js';
import { BlockErrorCode, BlockRejected } from '../../../protocol/chain/block-errors.js';
import { HeaderChain } from '../../../protocol/chain/header-chain.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';

t.test('a testnet header chain checks out, and a miniblock without its proof of work does not', async (t) => {
  const test = await openTestChain({ network: 'testnet' });
  for (let i = 0; i < 3; i++) await mineBlock(test);
  const { chain } = test;
  const headers = () => new HeaderChain(test.core, chain.params, chain.metaAtTopo(0n)!, null, () => test.clock.now);
  const check = headers();
  for (let height = 1n; height <= 3n; height++) {
    const stored = chain.metaAtTopo(height)!;
    const { header: meta } = check.next(chain.blockBytes(stored.id)!);
    t.equal(toHex(meta.id), toHex(stored.id), `block ${height}: its id`);
    t.equal(meta.difficulty, stored.difficulty, `block ${height}: the difficulty it was mined at`);
    t.equal(meta.cumulativeWork, stored.cumulativeWork, `block ${height}: the cumulative work`);
    t.equal(toHex(meta.stateRoot), toHex(stored.stateRoot), `block ${height}: its state root`);
  }

  const block = decodeBlock(chain.blockBytes(chain.metaAtTopo(1n)!.id)!);
  // At testnet's low difficulty one nonce in ~50 still meets the target; take the first changed nonce that does not.
  const miniblock = block.miniblocks[3]!;
  const difficulty = chain.metaAtTopo(1n)!.difficulty;
  const original = miniblock.nonce[0];
  for (let k = 1; ; k++) {
    miniblock.nonce = [(original ^ k) >>> 0, 7, 7];
    if (!meetsTarget(test.core.powHash(encodeMiniblock(miniblock)), difficulty)) break;
  }
  t.equal(
    rejection(() => headers().next(encodeBlock(block))),
    BlockErrorCode.BadPow,
    'a miniblock whose nonce was changed fails its proof of work',
  );
  const linked = headers().link(encodeBlock(block));
  t.same(
    linked.pow.map((challenge) => [challenge.miniblock, challenge.difficulty]),
    Array.from({ length: 10 }, (_, i) => [i, i === 9 ? 9n * difficulty : difficulty]),
    'link leaves the proofs of work, 9× for the final miniblock, to its caller',
  );
  t.notOk(
    meetsTarget(test.core.powHash(linked.pow[3]!.blob), linked.pow[3]!.difficulty),
    'where the changed one fails',
  );
  const second = chain.blockBytes(chain.metaAtTopo(2n)!.id)!;
  t.equal(
    rejection(() => headers().next(second)),
    BlockErrorCode.UnknownTip,
    'a block that does not follow the last one checked',
  );
});

function rejection(check: () => unknown): string | undefined {
  try {
    check();
  } catch (error) {
    return error instanceof BlockRejected ? error.code : `not a BlockRejected: ${String(error)}`;
  }
  return undefined;
}
