/** Accounts over the versioned state: a writable state reads its own writes and its base's balances alike. */
import t from 'tap';
import { NATIVE_ASSET } from '../../../plugins/consensus/accounts.js';
import { encodeNonceBalance, type NonceBalance } from '../../../protocol/nonce-balance.js';
import { openTestChain } from '../../helpers/chain.js';
import { newAccount, registeredAccounts } from '../../helpers/transfers.js';

const encoded = (balance: NonceBalance | undefined) =>
  balance && Buffer.from(encodeNonceBalance(balance)).toString('hex');

t.test('balances read together are those read one by one: written, from the base, and absent', async (t) => {
  const test = await openTestChain();
  const [alice, bob] = await registeredAccounts(test, 2);
  const stranger = newAccount(test);
  const top = test.chain.top;
  for (const at of [undefined, { index: test.chain.balanceIndex, topoheight: top.height }]) {
    const state = test.accounts.write(top.stateVersion, at);
    const moved = { ...state.getBalance(NATIVE_ASSET, bob!.key)!, nonceHeight: top.height + 1n };
    state.putBalance(NATIVE_ASSET, bob!.key, moved);
    const keys = [test.premine, bob!.key, stranger.key, alice!.key];
    const together = state.getBalances(NATIVE_ASSET, keys).map(encoded);
    t.same(
      together,
      keys.map((key) => encoded(state.getBalance(NATIVE_ASSET, key))),
      `${at ? 'indexed' : 'trie'} base`,
    );
    t.equal(together[1], encoded(moved), 'the written balance');
    t.equal(together[2], undefined, 'an account that holds nothing');
    t.ok(together[0] && together[3], 'the base balances');
  }
});
