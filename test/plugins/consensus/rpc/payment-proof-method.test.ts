/**
 * NODE.CheckPaymentProof on a real chain and pool: a proof of a transfer in the pool and, once mined, in a block names
 * the receiver and the amount; a proof that does not fit is answered `valid: false` with its code and reason; an
 * unknown transaction (`query.unknown-transaction`) and bad params are errors.
 */
import t from 'tap';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { decodeTransaction, encodeTransactionHeader } from '../../../../protocol/transaction.js';
import { InvalidParamsError } from '../../../../host/rpc/errors.js';
import { QueryErrorCode } from '../../../../protocol/query-errors.js';
import { paymentProofMethod } from '../../../../plugins/consensus/rpc/payment-proof-method.js';
import { mineBlock, openTestChain } from '../../../helpers/chain.js';
import { paymentProofOf } from '../../../helpers/payment-proofs.js';
import {
  buildTestTransfer,
  newAccount,
  premineAccount,
  registeredAccounts,
  registrationBytes,
} from '../../../helpers/transfers.js';

t.test('NODE.CheckPaymentProof', async (t) => {
  const chain = await openTestChain();
  const [bob] = await registeredAccounts(chain, 3);
  const method = paymentProofMethod({
    chain: chain.chain,
    pool: () => chain.pool,
    core: chain.core,
    network: 'simulator',
  });
  const check = async (params: unknown) => method.handler(method.params(params, 'params'), { transport: 'internal' });

  const sent = buildTestTransfer(chain, premineAccount(chain), bob!.key, 4321n, {
    ringSize: 4,
    payloadArgs: [{ name: 'C', datatype: 'S', value: 'invoice 12' }],
  });
  chain.pool.add(sent.bytes);
  const txid = toHex(sent.txid);
  const proof = paymentProofOf(chain.core, sent, 0, 1, 4321n);
  const fits = {
    valid: true,
    payload: 0,
    asset: '0'.repeat(64),
    ring_index: 1,
    ring_size: 4,
    receiver: encodeAddress('simulator', bob!.key),
    amount: 4321n,
    payload_rpc: [{ name: 'C', datatype: 'S', value: 'invoice 12' }],
    status: 'OK',
  };
  t.same(await check({ txid, proof }), fits, 'a transfer in the pool');
  await mineBlock(chain);
  t.same(await check({ txid: txid.toUpperCase(), proof }), fits, 'the same, mined');

  t.same(await check({ txid, proof: paymentProofOf(chain.core, sent, 0, 1, 4320n) }), {
    valid: false,
    code: 'payment-proof.wrong-amount',
    reason: `the proof opens the payload of ${fits.receiver} (ring member 2 of 4), but that member did not receive 0.04320 UMB (4320 atomic units): the proof's amount was altered`,
    status: 'OK',
  });
  t.match(await check({ txid, proof: 'umbproof1nonsense' }), {
    valid: false,
    code: 'payment-proof.unreadable',
    reason: /^not a valid payment proof: /,
  });
  const registration = registrationBytes(chain, newAccount(chain));
  chain.pool.add(registration);
  const registrationId = toHex(chain.core.keccak256(encodeTransactionHeader(decodeTransaction(registration))));
  t.match(await check({ txid: registrationId, proof }), {
    valid: false,
    code: 'payment-proof.not-a-transfer',
    reason: /is a registration, not a transfer/,
  });

  await t.rejects(check({ txid: 'ab'.repeat(32), proof }), {
    name: 'QueryError',
    code: QueryErrorCode.UnknownTransaction,
    message: `no transaction ${'ab'.repeat(32)} on this chain or in the pool`,
  });
  await t.rejects(check({ txid: 'xyz', proof }), InvalidParamsError);
  await t.rejects(check({ txid }), InvalidParamsError);
});
