/** Admission to the pool: every refusal is a TransactionError whose code says which rule the transaction broke. */
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { type TransactionError, TransactionErrorCode } from '../../../protocol/transaction-errors.js';
import { TX_VALIDITY_BLOCKS } from '../../../protocol/chain-params.js';
import { encodeTransaction, MAX_TX_BYTES } from '../../../protocol/transaction.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { waitUntil } from '../../helpers/p2p.js';
import { buildTestTransfer, newAccount, registeredAccounts, registrationBytes } from '../../helpers/transfers.js';

t.test('the pool refuses with the code of the broken rule', async (t) => {
  const chain = await openTestChain();
  const alice = newAccount(chain);
  t.throws(() => chain.pool.add(new Uint8Array(MAX_TX_BYTES + 1)), {
    name: 'TransactionError',
    code: TransactionErrorCode.TooLarge,
  });
  t.throws(() => chain.pool.add(Uint8Array.of(1, 1)), {
    code: TransactionErrorCode.Malformed,
    message: /^malformed transaction: /,
  });

  const registration = registrationBytes(chain, alice);
  chain.pool.add(registration);
  t.throws(() => chain.pool.add(registration), { code: TransactionErrorCode.AlreadyPending });
  t.throws(
    () => chain.pool.add(registrationBytes(chain, alice)),
    { code: TransactionErrorCode.RegistrationPending, message: /already pending/ },
    'another registration of the same key',
  );

  await mineBlock(chain);
  t.throws(() => chain.pool.add(registration), { code: TransactionErrorCode.AlreadyInBlock });
  // A rule of the chain's comes through with its own code and its reason alone, not prefixed with the txid.
  t.throws(() => chain.pool.add(registrationBytes(chain, alice)), {
    code: TransactionErrorCode.AlreadyRegistered,
    message: `key ${toHex(alice.key)} is already registered`,
  });
});

t.test('submissions admitted in batches: verified once from the pool to the block, each refusal its own', async (t) => {
  await forEachCore(t, async (t, core) => {
    const chain = await openTestChain({ core });
    const senders = await registeredAccounts(chain, 4);
    // Transfers of 0 from accounts that hold 0: the proofs are those of any transfer.
    const transfers = senders.map((from, i) =>
      buildTestTransfer(chain, from, senders[(i + 1) % senders.length]!.key, 0n, { senderBalance: 0n }),
    );
    const forged = Uint8Array.from(transfers[3]!.bytes);
    forged[forged.length - 1]! ^= 1; // the proof's last scalar: the txid stays, the proof fails
    const verified: number[] = [];
    chain.chain.observeTimings({ transferVerified: (ring) => verified.push(ring) });

    const answers = await Promise.allSettled([
      ...transfers.slice(0, 3).map((built) => chain.pool.addBatched(built.bytes)),
      chain.pool.addBatched(transfers[0]!.bytes),
      chain.pool.addBatched(forged),
      chain.pool.addBatched(Uint8Array.of(1, 1)),
    ]);
    t.same(
      answers.slice(0, 3).map((a) => a.status === 'fulfilled' && toHex(a.value)),
      transfers.slice(0, 3).map((built) => toHex(built.txid)),
      'the valid transfers are admitted, each answered with its txid',
    );
    const reasons = answers.slice(3).map((a) => a.status === 'rejected' && (a.reason as TransactionError).code);
    t.same(
      reasons,
      [TransactionErrorCode.AlreadyPending, TransactionErrorCode.InvalidProof, TransactionErrorCode.Malformed],
      'a duplicate, a forged proof and bytes that are no transaction are refused, each with its reason',
    );
    t.same(
      chain.pool.pending().map(toHex).sort(),
      transfers
        .slice(0, 3)
        .map((b) => toHex(b.txid))
        .sort(),
    );

    await mineBlock(chain);
    t.equal(chain.pool.size, 0, 'the block took them');
    t.equal(verified.length, 4, 'each transfer verified once, in one batch: not again for the template nor the block');
  });
});

t.test(
  'after a block, what waits is re-checked in slices while the event loop turns, and what expired goes',
  async (t) => {
    const chain = await openTestChain();
    const accounts = await registeredAccounts(chain, 6);
    const txids = [0, 1, 2].map((i) =>
      chain.pool.add(encodeTransaction(buildTestTransfer(chain, accounts[i]!, accounts[i + 3]!.key, 0n).tx)),
    );
    // Held back (as a stem holds them), so blocks leave them waiting until they expire.
    for (const txid of txids) chain.pool.holdBack(txid);
    // Each check holds the thread longer than a slice: every one is a slice of its own.
    const check = chain.chain.checkTransaction.bind(chain.chain);
    chain.chain.checkTransaction = (...args) => {
      const until = performance.now() + 6;
      while (performance.now() < until);
      return check(...args);
    };
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    tick();
    const removedAtTurn: number[] = [];
    const remove = chain.pool.remove.bind(chain.pool);
    chain.pool.remove = (txid) => {
      removedAtTurn.push(turns);
      remove(txid);
    };
    for (let i = 0n; i < TX_VALIDITY_BLOCKS; i++) await mineBlock(chain);
    await waitUntil('the expired transfers are gone', () => chain.pool.size === 0);
    ticking = false;
    t.equal(removedAtTurn.length, 3, 'each expired transfer went');
    t.ok(
      new Set(removedAtTurn).size > 1,
      `the event loop turned between the checks (removed at turns ${removedAtTurn})`,
    );
  },
);
