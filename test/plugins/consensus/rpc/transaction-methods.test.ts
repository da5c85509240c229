/**
 * NODE.GetTransaction on a real chain and pool: a mined contract transaction's record carries `sc_outcome` (what its
 * call did), while pool transactions and plain transfers have none, and the other fields stay as they were.
 */
import t from 'tap';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import type { RpcArgument } from '../../../../protocol/rpc-arguments.js';
import { transactionMethods } from '../../../../plugins/consensus/rpc/transaction-methods.js';
import { mineBlock, openTestChain } from '../../../helpers/chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts } from '../../../helpers/transfers.js';
import { VAULT_CONTRACT } from '../../../helpers/vault-contract.js';
import { installArgs } from '../../../../wallet/contract-args.js';

t.test('GetTransaction reports sc_outcome for mined contract transactions only', async (t) => {
  const chain = await openTestChain();
  const [alice, bob] = await registeredAccounts(chain, 2);
  chain.pool.add(buildTestTransfer(chain, premineAccount(chain), alice!.key, 1_000_000n).bytes);
  await mineBlock(chain);
  const [getTransaction] = transactionMethods({
    chain: chain.chain,
    core: chain.core,
    pool: () => chain.pool,
    addressOf: (key) => encodeAddress(chain.network, key),
  });
  const records = async (...txids: Uint8Array[]) =>
    (
      (await getTransaction!.handler({ txs_hashes: txids.map(toHex) }, undefined as never)) as {
        txs: Record<string, unknown>[];
      }
    ).txs;

  const install = buildTestTransfer(chain, alice!, bob!.key, 0n, {
    scArgs: installArgs(VAULT_CONTRACT),
    fee: 2000n,
  });
  chain.pool.add(install.bytes);
  await mineBlock(chain);
  const withdraw: RpcArgument[] = [
    { name: 'SC_ACTION', datatype: 'U', value: 0n },
    { name: 'SC_ID', datatype: 'H', value: toHex(install.txid) },
    { name: 'entrypoint', datatype: 'S', value: 'Withdraw' },
  ];
  const failing = buildTestTransfer(chain, alice!, bob!.key, 0n, { scArgs: withdraw });
  chain.pool.add(failing.bytes);
  const [pending] = await records(failing.txid);
  t.equal(pending!.in_pool, true);
  t.notOk('sc_outcome' in pending!, 'a pool transaction has no outcome yet');

  await mineBlock(chain);
  const failedBlock = toHex(chain.chain.top.id);
  const plain = buildTestTransfer(chain, alice!, bob!.key, 5n);
  chain.pool.add(plain.bytes);
  await mineBlock(chain);
  const [installed, failed, transfer] = await records(install.txid, failing.txid, plain.txid);
  t.match(installed!.sc_outcome, { status: 'committed', code: 0 }, 'the install ran Initialize');
  t.match(
    failed,
    {
      in_pool: false,
      valid_block: failedBlock,
      sc_outcome: { status: 'failed', message: /panic.*line 20/i, line: 20 },
    },
    'the failed call says why and where',
  );
  t.type((failed!.sc_outcome as { gascompute: unknown }).gascompute, 'number');
  t.notOk('sc_outcome' in transfer!, 'a plain transfer has no outcome');
  t.same(
    Object.keys(failed!).filter((key) => key !== 'sc_outcome'),
    Object.keys(transfer!),
    'every other field is as before',
  );
});
