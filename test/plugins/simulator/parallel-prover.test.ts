/**
 * Proofs made in helper processes and on this thread are proofs the chain accepts, in the order of their payloads; a
 * payload that cannot be proved fails the whole with the prover's reason. On both cores.
 */
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { NETWORKS } from '../../../protocol/network.js';
import { premineSecret } from '../../../protocol/premine.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { prepareTransfer } from '../../../protocol/transfer-builder.js';
import { TxType } from '../../../protocol/transaction.js';
import { payFromPremine } from '../../../plugins/simulator/fund-accounts.js';
import { proveInParallel } from '../../../plugins/simulator/parallel-prover.js';
import { BalanceDecoder } from '../../../wallet/balance-decoder.js';
import { openTestChain, mineBlock } from '../../helpers/chain.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { balanceOf, premineAccount, premineBalance, registeredAccounts } from '../../helpers/transfers.js';
import { TEST_BALANCE_TABLE_DIR } from '../../helpers/wallet-app.js';

const domain = NETWORKS.simulator.generatorDomain;

t.test('a payment to six accounts, proved on every core, is accepted and pays each its amount', (t) =>
  forEachCore(t, async (t, core) => {
    const test = await openTestChain({ core });
    const accounts = await registeredAccounts(test, 6);
    const deps = {
      core,
      domain,
      chain: test.chain,
      pool: test.pool,
      decoder: new BalanceDecoder(core, core.generators(domain).G, TEST_BALANCE_TABLE_DIR),
      premineSecret: premineSecret(core, 'simulator'),
      premineKey: test.premine,
      mine: () => mineBlock(test),
      exclusive: <T>(task: () => Promise<T>) => task(),
      spent: new Map<string, bigint>(),
    };
    const txid = await payFromPremine(
      deps,
      NATIVE_SCID,
      accounts.map((account, i) => ({ key: account.key, amount: 1000n + BigInt(i) })),
    );
    t.same(test.pool.pending().map(toHex), [toHex(txid)], 'the pool took it (its proofs verified)');
    await mineBlock(test);
    t.same(
      accounts.map((account) => balanceOf(test, account)),
      accounts.map((_, i) => 1000n + BigInt(i)),
    );
  }),
);

t.test('a payload that cannot be proved rejects the whole with the reason', (t) =>
  forEachCore(t, async (t, core) => {
    const test = await openTestChain({ core });
    const accounts = await registeredAccounts(test, 4);
    const premine = premineAccount(test);
    const top = test.chain.top;
    const prepared = prepareTransfer(core, core.generators(domain), {
      type: TxType.Normal,
      secretKey: premine.sk,
      reference: { height: top.height, blid: top.id, roothash: top.stateRoot },
      payloads: accounts.map((account) => ({
        scid: NATIVE_SCID,
        ring: [premine.key, account.key],
        senderIndex: 0,
        receiverIndex: 1,
        amount: 1n,
        burn: 0n,
        fee: 0n,
        args: new Uint8Array(0),
      })),
      balanceAt: (asset, key) => test.chain.balance(asset, key),
      senderBalance: () => premineBalance(test),
    });
    // Whichever thread takes them, these payloads' sender claims less than it sends.
    for (const task of prepared.proofs.slice(1)) task.witness.balance = 0n;
    await t.rejects(proveInParallel(core, domain, prepared.proofs), { message: /insufficient balance/ });
  }),
);
