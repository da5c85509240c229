/** Admission to the pool: every refusal is a TransactionError whose code says which rule the transaction broke. */
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { type TransactionError, TransactionErrorCode } from '../../../protocol/transaction-errors.js';
import { MAX_TX_BYTES } from '../../../protocol/transaction.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { forEachCore } from '../../helpers/core-impls.js';
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
