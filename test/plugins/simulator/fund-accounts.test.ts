/** The simulator's accounts are funded idempotently: a start that died between registering and paying is completed. */
import t from 'tap';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { toHex } from '../../../protocol/bytes.js';
import { encodeNonceBalance } from '../../../protocol/nonce-balance.js';
import { premineSecret } from '../../../protocol/premine.js';
import { makeRegistration } from '../../../protocol/registration.js';
import { encodeTransaction } from '../../../protocol/transaction.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { NETWORKS } from '../../../protocol/network.js';
import { registerAndFund } from '../../../plugins/simulator/fund-accounts.js';
import { BalanceDecoder } from '../../../wallet/balance-decoder.js';
import { walletKeys } from '../../../wallet/wallet-keys.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { TEST_BALANCE_TABLE_DIR } from '../../helpers/wallet-app.js';

const AMOUNT = 800_000n;

t.test('registered but unfunded accounts (a start killed halfway) are funded by the next start, once', async (t) => {
  const test = await openTestChain();
  const { core, chain } = test;
  const domain = NETWORKS.simulator.generatorDomain;
  const G = core.generators(domain).G;
  const accounts = [0, 1, 2].map((i) => walletKeys(core, 'simulator', simulatorWalletSecret(core, i)));
  // What the killed start left: the registrations mined, no payment.
  for (const account of accounts.slice(0, 2))
    test.pool.add(encodeTransaction(makeRegistration(core, G, account.secretKey, chain.params.registrationPowBits)));
  await mineBlock(test);
  const decoder = new BalanceDecoder(core, G, TEST_BALANCE_TABLE_DIR);
  const deps = {
    core,
    domain,
    chain,
    pool: test.pool,
    decoder,
    premineSecret: premineSecret(core, 'simulator'),
    premineKey: test.premine,
    mine: () => mineBlock(test),
    exclusive: <T>(task: () => Promise<T>) => task(),
    spent: new Map<string, bigint>(),
  };
  const balance = (i: number): bigint =>
    decoder.decode(
      toHex(encodeNonceBalance(chain.balance(NATIVE_SCID, accounts[i]!.publicKey)!)),
      accounts[i]!.secretKey,
      AMOUNT,
    );

  t.equal(await registerAndFund(deps, accounts, AMOUNT), 3, 'the two registered and the new one are paid');
  t.same([0, 1, 2].map(balance), [AMOUNT, AMOUNT, AMOUNT]);
  t.equal(await registerAndFund(deps, accounts, AMOUNT), 0, 'a later start pays nobody twice');
  t.same([0, 1, 2].map(balance), [AMOUNT, AMOUNT, AMOUNT]);
});
