/**
 * Snapshots on their own (the chain and pool stand-ins record what is asked of them): a revert re-points the chain,
 * leaves the pool exactly as it was, restores what the premine had paid, waits for its listeners, and uses up the
 * snapshot and those taken after it. The whole path on a real simulator is in rpc.test.ts.
 */
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import type { BlockMeta, ChainService } from '../../../host/services/chain.js';
import type { TxPoolService } from '../../../host/services/tx-pool.js';
import { Snapshots } from '../../../plugins/simulator/snapshots.js';

const bytes = (n: number): Uint8Array => Uint8Array.of(n);

function setup() {
  let top = { id: bytes(1), height: 1n } as BlockMeta;
  const rewound: string[] = [];
  const chain = {
    get top() {
      return top;
    },
    rewindTo: async (id: Uint8Array) => {
      rewound.push(toHex(id));
      top = { id, height: BigInt(id[0]!) } as BlockMeta;
      return top;
    },
  } as unknown as ChainService;
  const txs = new Map<string, Uint8Array>();
  const pool = {
    pending: () => [...txs.values()],
    get: (id: Uint8Array) => txs.get(toHex(id)),
    remove: (id: Uint8Array) => void txs.delete(toHex(id)),
    add: (tx: Uint8Array) => {
      txs.set(toHex(tx), tx);
      return tx;
    },
  } as unknown as TxPoolService;
  const spent = new Map<string, bigint>();
  const snapshots = new Snapshots({ chain, pool, spent, exclusive: (task) => task() });
  return {
    snapshots,
    pool,
    txs,
    spent,
    rewound,
    moveTo: (n: number) => (top = { id: bytes(n), height: BigInt(n) } as BlockMeta),
  };
}

t.test('a revert restores the top, the pool and the premine payments, then tells the listeners', async (t) => {
  const { snapshots, pool, txs, spent, rewound, moveTo } = setup();
  pool.add(bytes(0xa1));
  spent.set('coin', 5n);
  const id = await snapshots.take();
  moveTo(4);
  pool.remove(bytes(0xa1));
  pool.add(bytes(0xb2));
  spent.set('coin', 9n);
  let heard = 0;
  snapshots.onRevert(async () => void heard++);
  t.equal(await snapshots.revert(id), true);
  t.same(rewound, ['01']);
  t.same([...txs.keys()], ['a1'], 'exactly the pool of the snapshot');
  t.same([...spent], [['coin', 5n]]);
  t.equal(heard, 1);
});

t.test('reverting uses up the snapshot and the later ones, not the earlier', async (t) => {
  const { snapshots, moveTo } = setup();
  const first = await snapshots.take();
  moveTo(2);
  const second = await snapshots.take();
  moveTo(3);
  const third = await snapshots.take();
  t.equal(await snapshots.revert(second), true);
  t.equal(await snapshots.revert(second), false, 'used up');
  t.equal(await snapshots.revert(third), false, 'taken after it: used up too');
  t.equal(await snapshots.revert(first), true, 'an earlier one still works');
  t.equal(await snapshots.revert(99), false);
});
