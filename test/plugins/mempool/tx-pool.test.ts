/** Admission to the pool: every refusal is a TransactionError whose code says which rule the transaction broke. */
import t from 'tap';
import { toHex } from '../../../host/protocol/bytes.js';
import { TransactionErrorCode } from '../../../host/protocol/transaction-errors.js';
import { MAX_TX_BYTES } from '../../../host/protocol/transaction.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { newAccount, registrationBytes } from '../../helpers/transfers.js';

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
    { code: TransactionErrorCode.ConflictsWithPending, message: /already pending/ },
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
