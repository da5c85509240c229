/**
 * Transfer verdicts are remembered: a transfer checked again is not verified again, even once the cache with the rings'
 * balances has dropped it (a pool of more transfers than that cache holds re-checks every one after each block), and
 * a remembered verdict gives the same nonces and parities as the verification.
 */
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { NETWORKS } from '../../../protocol/network.js';
import { encodeNonceBalance } from '../../../protocol/nonce-balance.js';
import { NATIVE_ASSET } from '../../../plugins/consensus/accounts.js';
import { decodeTransaction, type TransferTx } from '../../../protocol/transaction.js';
import { balanceMath } from '../../../plugins/consensus/balance-math.js';
import type { ExecutionView } from '../../../plugins/consensus/chain.js';
import { TransferRules } from '../../../plugins/consensus/execute-transfer.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { buildTestTransfer, premineAccount, registeredAccounts } from '../../helpers/transfers.js';

t.test('a verdict dropped with its ring balances is still known: checking again verifies nothing', async (t) => {
  await forEachCore(t, async (t, core) => {
    const chain = await openTestChain({ core });
    const [alice] = await registeredAccounts(chain, 1);
    const premine = premineAccount(chain);
    const transfers = [1n, 2n, 3n].map((amount) => buildTestTransfer(chain, premine, alice!.key, amount));
    const domain = NETWORKS[chain.network].generatorDomain;
    let verifications = 0;
    const rules = new TransferRules(
      core,
      core.generators(domain),
      balanceMath(core, domain),
      { transferVerified: () => verifications++ },
      { verified: 1, verdicts: 3 },
    );
    const top = chain.chain.top;
    const view: ExecutionView = {
      ancestor: (height) => chain.chain.metaAtTopo(height),
      stateAt: (meta) => chain.chain.stateAt(meta),
    };
    const check = ({ txid, bytes }: (typeof transfers)[number]) =>
      rules.check(
        txid,
        bytes,
        decodeTransaction(bytes) as TransferTx,
        top.height + 1n,
        chain.chain.stateAt(top),
        view,
        new Set(),
      );
    const first = transfers.map(check);
    t.equal(verifications, 3, 'each transfer verified once');
    const again = transfers.map(check);
    t.equal(verifications, 3, 'checked again in the same order, none is verified again');
    t.same(
      again.map((payloads) => payloads.map(({ nonce, senderParity }) => ({ nonce, senderParity }))),
      first.map((payloads) => payloads.map(({ nonce, senderParity }) => ({ nonce, senderParity }))),
      'the remembered verdicts are the verified ones',
    );
    check(buildTestTransfer(chain, premine, alice!.key, 4n));
    t.equal(verifications, 4);
    check(transfers[0]!);
    t.equal(verifications, 5, 'past both limits the oldest verdict goes');
  });
});

t.test(
  'a transfer verified ahead applies to ring balances changed since as one verified by its check does',
  async (t) => {
    await forEachCore(t, async (t, core) => {
      const chain = await openTestChain({ core });
      const [alice] = await registeredAccounts(chain, 3);
      const { txid, bytes } = buildTestTransfer(chain, premineAccount(chain), alice!.key, 5n, {
        ringSize: 4,
        senderIndex: 2,
        receiverIndex: 1,
      });
      const tx = decodeTransaction(bytes) as TransferTx;
      // The premine, the sender, mines the next block: its balance is no longer the referenced one.
      await mineBlock(chain);
      const domain = NETWORKS[chain.network].generatorDomain;
      const rules = (): TransferRules => new TransferRules(core, core.generators(domain), balanceMath(core, domain));
      const top = chain.chain.top;
      const view: ExecutionView = {
        ancestor: (height) => chain.chain.metaAtTopo(height),
        stateAt: (meta) => chain.chain.stateAt(meta),
      };
      const checked = (of: TransferRules) =>
        of.check(txid, bytes, tx, top.height + 1n, chain.chain.stateAt(top), view, new Set());
      const ahead = rules();
      await ahead.preverify([{ id: txid, bytes, tx }], view, undefined);
      const [payload] = checked(ahead);
      t.ok(payload?.ring?.ciphertexts, 'verified ahead: the ring balances and ciphertexts come with it');
      const state = chain.chain.stateAt(top);
      const changed = tx.payloads[0]!.statement.ring.filter(
        (key, j) => !Buffer.from(state.getBalance(NATIVE_ASSET, key)!.L).equals(payload!.ring!.before.L[j]!),
      );
      t.equal(changed.length, 1, "one member's balance changed since the referenced state");
      /** The balances `of` writes applying the transfer on the top's state. */
      const applied = (of: TransferRules): Record<string, string> => {
        const written: Record<string, string> = {};
        of.apply(tx, checked(of), top.height + 1n, {
          getBalance: (asset, key) => state.getBalance(asset, key),
          getBalances: (asset, keys) => state.getBalances(asset, keys),
          putBalance: (_asset, key, balance) => {
            written[toHex(key)] = toHex(encodeNonceBalance(balance));
          },
        });
        return written;
      };
      const plain = rules();
      t.notOk(checked(plain)[0]!.ring, 'verified by its check: no ring balances nor ciphertexts come with it');
      t.same(applied(ahead), applied(plain), 'every ring member gets the same balance');
    });
  },
);
