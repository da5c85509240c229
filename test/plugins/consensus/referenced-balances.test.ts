/** Referenced balances over a real chain: each state's balances are read from it once, absent ones too; states apart. */
import t from 'tap';
import { NATIVE_ASSET } from '../../../plugins/consensus/accounts.js';
import type { Chain, ExecutionView } from '../../../plugins/consensus/chain.js';
import { ReferencedBalances } from '../../../plugins/consensus/referenced-balances.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { newAccount, registeredAccounts } from '../../helpers/transfers.js';

/** A view of the chain's states that counts the balances read one by one and the sizes of the batched reads. */
function countingView(chain: Chain): { view: ExecutionView; reads: { single: number; batches: number[] } } {
  const reads = { single: 0, batches: [] as number[] };
  const view: ExecutionView = {
    ancestor: (height) => chain.metaAtTopo(height),
    stateAt: (meta) => {
      const state = chain.stateAt(meta);
      return {
        ...state,
        getBalance: (asset, key) => {
          reads.single++;
          return state.getBalance(asset, key);
        },
        getBalances: (asset, keys) => {
          reads.batches.push(keys.length);
          return state.getBalances(asset, keys);
        },
      };
    },
  };
  return { view, reads };
}

t.test('each state is read once per balance; every state keeps its own balances', async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  const [alice] = await registeredAccounts(test, 1);
  const { view, reads } = countingView(chain);
  const balances = new ReferencedBalances();
  const before = chain.top;
  const premineThen = chain.balance(NATIVE_ASSET, test.premine);
  const stranger = newAccount(test);
  for (let i = 0; i < 2; i++) {
    const reader = balances.reader(view, before);
    t.same(reader.getBalance(NATIVE_ASSET, alice!.key), chain.balance(NATIVE_ASSET, alice!.key), `alice, pass ${i}`);
    t.same(reader.getBalance(NATIVE_ASSET, test.premine), premineThen, `premine, pass ${i}`);
    t.equal(reader.getBalance(NATIVE_ASSET, stranger.key), undefined, `an unregistered key, pass ${i}`);
  }
  t.equal(reads.single, 3, 'three balances read from the state once each');
  await mineBlock(test);
  const premineNow = chain.balance(NATIVE_ASSET, test.premine);
  t.notSame(premineNow, premineThen, 'the reward moved the premine balance');
  t.same(balances.reader(view, chain.top).getBalance(NATIVE_ASSET, test.premine), premineNow, 'the new state');
  t.same(balances.reader(view, before).getBalance(NATIVE_ASSET, test.premine), premineThen, 'the old state still');
  t.equal(reads.single, 4);
});

t.test("preloading reads a state's unknown balances together, once", async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  const accounts = await registeredAccounts(test, 3);
  const stranger = newAccount(test);
  const { view, reads } = countingView(chain);
  const batches = reads.batches;
  const balances = new ReferencedBalances();
  const reader = balances.reader(view, chain.top);
  reader.getBalance(NATIVE_ASSET, accounts[0]!.key);
  reader.preload(NATIVE_ASSET, [...accounts.map((a) => a.key), stranger.key, accounts[1]!.key]);
  t.same(batches, [4], 'the three not yet read (one named twice) and the stranger, in one read');
  for (const account of accounts)
    t.same(reader.getBalance(NATIVE_ASSET, account.key), chain.balance(NATIVE_ASSET, account.key));
  t.equal(reader.getBalance(NATIVE_ASSET, stranger.key), undefined, 'an unregistered key, remembered as absent');
  t.equal(reads.single, 1, 'nothing read one by one after the preload');
  reader.preload(NATIVE_ASSET, [accounts[2]!.key]);
  t.same(batches, [4], 'what is known is not read again');
});

t.test('the balances remembered over all states are bounded: past the limit, every state starts over', async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  const accounts = await registeredAccounts(test, 2);
  const before = chain.top;
  await mineBlock(test);
  const { view, reads } = countingView(chain);
  const balances = new ReferencedBalances(3);
  const [alice, bob] = accounts.map((a) => a.key) as [Uint8Array, Uint8Array];
  balances.reader(view, before).getBalance(NATIVE_ASSET, alice);
  balances.reader(view, before).getBalance(NATIVE_ASSET, bob);
  balances.reader(view, chain.top).getBalance(NATIVE_ASSET, alice);
  t.equal(reads.single, 3, 'three balances over two states');
  balances.reader(view, before).getBalance(NATIVE_ASSET, alice);
  t.equal(reads.single, 3, 'remembered while under the limit');
  balances.reader(view, chain.top).getBalance(NATIVE_ASSET, bob);
  t.equal(reads.single, 4, 'the fourth balance is read');
  balances.reader(view, before).getBalance(NATIVE_ASSET, alice);
  t.equal(reads.single, 5, 'and it made every state start over');
  t.same(
    balances.reader(view, before).getBalance(NATIVE_ASSET, alice),
    chain.stateAt(before).getBalance(NATIVE_ASSET, alice),
  );
});
