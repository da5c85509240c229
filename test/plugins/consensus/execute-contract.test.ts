/**
 * Contract transactions executed in blocks: install (SCID = txid, initializer run, code stored), calls with deposits,
 * payouts to accounts, the contract's own token, the signer known only with a ring of 2, refunds on failure to a
 * known signer, what the pool refuses before anything runs, and the outcome each call leaves on record.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { encodeAddress } from '../../../protocol/address.js';
import { toHex } from '../../../protocol/bytes.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import type { RpcArgument } from '../../../protocol/rpc-arguments.js';
import { mineBlock, openTestChain, type TestChain } from '../../helpers/chain.js';
import {
  balanceOf,
  buildTestTransfer,
  newAccount,
  premineAccount,
  premineBalance,
  registeredAccounts,
  type Account,
} from '../../helpers/transfers.js';

const install = (code: string): RpcArgument[] => [
  { name: 'SC_ACTION', datatype: 'U', value: 1n },
  { name: 'SC_CODE', datatype: 'S', value: code },
];
const call = (scid: Uint8Array, entrypoint: string, more: RpcArgument[] = []): RpcArgument[] => [
  { name: 'SC_ACTION', datatype: 'U', value: 0n },
  { name: 'SC_ID', datatype: 'H', value: toHex(scid) },
  { name: 'entrypoint', datatype: 'S', value: entrypoint },
  ...more,
];

/** A chain with a funded account (1 000 000 units) and three more registered keys for rings. */
async function funded(): Promise<{ chain: TestChain; alice: Account; others: Account[] }> {
  const chain = await openTestChain();
  const [alice, ...others] = await registeredAccounts(chain, 4);
  chain.pool.add(buildTestTransfer(chain, premineAccount(chain), alice!.key, 1_000_000n).bytes);
  await mineBlock(chain);
  return { chain, alice: alice!, others };
}

/** Sends a contract transaction from `from` (to a decoy receiver, amount 0) and mines it. */
async function scTx(
  chain: TestChain,
  from: Account,
  to: Account,
  args: RpcArgument[],
  options: { burn?: bigint; ringSize?: number; scid?: Uint8Array; fee?: bigint } = {},
): Promise<Uint8Array> {
  const built = buildTestTransfer(chain, from, to.key, 0n, {
    scArgs: args,
    burn: options.burn ?? 0n,
    ringSize: options.ringSize ?? 2,
    scid: options.scid,
    fee: options.fee ?? 500n,
  });
  chain.pool.add(built.bytes);
  await mineBlock(chain);
  t.equal(
    toHex(chain.chain.includingBlock(built.txid)!),
    toHex(chain.chain.top.id),
    'the contract transaction is in the block',
  );
  return built.txid;
}

const tokenCode = readFileSync('examples/contracts/token.bas', 'utf8');

t.test('install a token contract, issue tokens for a deposit, and hold them as an encrypted balance', async (t) => {
  const { chain, alice, others } = await funded();
  t.equal(
    await scTx(chain, alice, others[0]!, install(tokenCode)).then((id) => chain.chain.stateAt().contracts.exists(id)),
    false,
    'a fee below the storage gas of the code: the install is discarded',
  );
  const scid = await scTx(chain, alice, others[0]!, install(tokenCode), { fee: 5000n });
  const contracts = chain.chain.stateAt().contracts;
  t.ok(contracts.exists(scid), 'SCID = the install txid');
  t.equal(contracts.code(scid), tokenCode);
  t.ok(contracts.isPrivate(scid), 'InitializePrivate makes a private contract');
  t.equal(balanceOf(chain, alice, scid), 1_600_000n, 'the initializer granted the installer 1 600 000 tokens');
  t.equal(balanceOf(chain, alice), 1_000_000n - 5500n, 'both installs paid their fees');

  await scTx(chain, alice, others[0]!, call(scid, 'IssueTOKENX'), { burn: 5000n });
  t.equal(balanceOf(chain, alice, scid), 1_605_000n, 'tokens issued for the deposit');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 5000n, 'the deposit is the contract balance');
  t.equal(balanceOf(chain, alice), 1_000_000n - 6000n - 5000n);
});

const boom = `Function Initialize() Uint64
10 RETURN 0
End Function

Function Boom(value Uint64) Uint64
10 PANIC()
End Function

Function Keep(value Uint64) Uint64
10 STORE("kept", value)
20 RETURN 0
End Function

Function Pay(amount Uint64) Uint64
10 SEND_COIN_TO_ADDRESS(SIGNER(), amount)
20 RETURN 0
End Function
`;

t.test('a failing call refunds a known signer (ring 2) and not an anonymous one (ring 4)', async (t) => {
  const { chain, alice, others } = await funded();
  const scid = await scTx(chain, alice, others[0]!, install(boom), { fee: 1500n });
  await scTx(chain, alice, others[0]!, call(scid, 'Boom'), { burn: 7000n });
  t.equal(balanceOf(chain, alice), 1_000_000n - 2000n, 'ring 2: the deposit came back, the fee did not');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 0n);

  await scTx(chain, alice, others[0]!, call(scid, 'Boom'), { burn: 7000n, ringSize: 4 });
  t.equal(balanceOf(chain, alice), 1_000_000n - 2500n - 7000n, 'ring 4: the deposit is lost');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 0n, 'and does not reach the contract');

  await scTx(chain, alice, others[0]!, call(scid, 'Keep'), { burn: 3000n, ringSize: 4 });
  t.equal(chain.chain.stateAt().contracts.variable(scid, 'kept'), 3000n, 'an anonymous call commits');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 3000n);

  await scTx(chain, alice, others[0]!, call(scid, 'Pay', [{ name: 'amount', datatype: 'U', value: 2500n }]));
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 500n, 'the payout left the contract');
  t.equal(balanceOf(chain, alice), 1_000_000n - 3500n - 7000n - 3000n + 2500n, 'and reached the signer');
});

t.test('the pool refuses contract transactions that cannot run', async (t) => {
  const { chain, alice, others } = await funded();
  const refuse = (args: RpcArgument[], pattern: RegExp, name: string) =>
    t.throws(
      () => chain.pool.add(buildTestTransfer(chain, alice, others[0]!.key, 0n, { scArgs: args }).bytes),
      pattern,
      name,
    );
  refuse(
    install('Function Initialize() Uint64\n10 RETURN 0 0\nEnd Function'),
    /does not compile/,
    'code that does not compile',
  );
  refuse(install('Function Other() Uint64\n10 RETURN 0\nEnd Function'), /no Initialize/, 'no initializer');
  refuse([{ name: 'SC_ACTION', datatype: 'U', value: 1n }], /SC_CODE/, 'install without code');
  refuse([{ name: 'SC_ACTION', datatype: 'U', value: 7n }], /SC_ACTION/, 'unknown action');
  refuse(call(new Uint8Array(32).fill(9), 'Anything'), /there is no contract/, 'unknown contract');
  const scid = await scTx(chain, alice, others[0]!, install(boom), { fee: 1500n });
  refuse(call(scid, 'Missing'), /has no function Missing/, 'unknown entry point');
  t.equal(chain.pool.size, 0);
});

t.test('the lottery pays a depositor 9900/10000 of the pot after two plays, twice', async (t) => {
  const { chain, alice, others } = await funded();
  const [bob] = others;
  chain.pool.add(
    buildTestTransfer(chain, premineAccount(chain), bob!.key, 1_000_000n, {
      senderBalance: premineBalance(chain, 1_000_000n),
    }).bytes,
  );
  await mineBlock(chain);
  const scid = await scTx(chain, alice, bob!, install(readFileSync('examples/contracts/lottery.bas', 'utf8')), {
    fee: 8000n,
  });
  t.ok(chain.chain.stateAt().contracts.exists(scid));
  let aliceSpent = 8000n;
  let bobSpent = 0n;
  for (let round = 0; round < 2; round++) {
    await scTx(chain, alice, bob!, call(scid, 'Lottery'), { burn: 10_000n });
    await scTx(chain, bob!, alice, call(scid, 'Lottery'), { burn: 10_000n });
    aliceSpent += 10_500n;
    bobSpent += 10_500n;
    const a = balanceOf(chain, alice)!;
    const b = balanceOf(chain, bob!)!;
    const aliceWon = a === 1_000_000n - aliceSpent + 19_800n;
    t.ok(aliceWon || b === 1_000_000n - bobSpent + 19_800n, `round ${round + 1}: one depositor won 19 800`);
    if (aliceWon) aliceSpent -= 19_800n;
    else bobSpent -= 19_800n;
    t.equal(a + b, 2_000_000n - aliceSpent - bobSpent, 'and the other is down by the deposit and fee');
    t.equal(
      chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID),
      200n * BigInt(round + 1),
      'the contract keeps 1%',
    );
  }
});

t.test('a name registered through the name service resolves now and not before', async (t) => {
  const { chain, alice, others } = await funded();
  const nameService = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
  const before = chain.chain.top;
  await scTx(
    chain,
    alice,
    others[0]!,
    call(nameService, 'Register', [{ name: 'name', datatype: 'S', value: 'alice.umbra' }]),
  );
  t.equal(
    toHex(Buffer.from(chain.chain.stateAt().contracts.variable(nameService, 'alice.umbra') as string, 'latin1')),
    toHex(alice.key),
    'the signer owns the name',
  );
  t.equal(
    chain.chain.stateAt(before).contracts.variable(nameService, 'alice.umbra'),
    undefined,
    'the earlier state does not know it',
  );
});

const outcomes = `Function Initialize() Uint64
10 RETURN 0
End Function

Function Fail() Uint64
10 DIM unused as Uint64
20 PANIC()
End Function

Function Code() Uint64
10 RETURN 7
End Function

Function Text() String
10 RETURN "no"
End Function

Function Spin() Uint64
10 DIM i AS Uint64
20 LET i = i + 1
30 GOTO 20
End Function

Function PayTo(to String) Uint64
10 SEND_COIN_TO_ADDRESS(to, 100)
20 RETURN 0
End Function
`;

t.test('each contract call records what it did in the block that executed it', async (t) => {
  const { chain, alice, others } = await funded();
  const outcomeOf = (txid: Uint8Array) => chain.chain.callOutcome(chain.chain.includingBlock(txid)!, txid);
  const scid = await scTx(chain, alice, others[0]!, install(outcomes), { fee: 2000n });
  t.match(outcomeOf(scid), { status: 'committed', code: 0 }, 'an install is a call of its Initialize');
  t.ok(outcomeOf(scid)!.gascompute > 0, 'with the compute gas it used');

  const committed = await scTx(
    chain,
    alice,
    others[0]!,
    call(scid, 'PayTo', [{ name: 'to', datatype: 'S', value: encodeAddress(chain.network, others[1]!.key) }]),
    { burn: 1000n },
  );
  t.same(outcomeOf(committed), { status: 'committed', code: 0, gascompute: outcomeOf(committed)!.gascompute });

  const returned = await scTx(chain, alice, others[0]!, call(scid, 'Code'));
  t.same(outcomeOf(returned), { status: 'returned', code: 7, gascompute: outcomeOf(returned)!.gascompute });

  const panicked = outcomeOf(await scTx(chain, alice, others[0]!, call(scid, 'Fail')));
  t.match(panicked, { status: 'failed', message: /panic.*\(in Fail line 20\)/i, line: 20 }, 'a panic, with its line');
  t.notOk('code' in panicked!, 'a failure has no return code');

  t.match(
    outcomeOf(await scTx(chain, alice, others[0]!, call(scid, 'Text'))),
    { status: 'failed', message: /returned a String/ },
    'a String return value is a failure',
  );
  const spun = outcomeOf(await scTx(chain, alice, others[0]!, call(scid, 'Spin')));
  t.match(spun, { status: 'failed', message: /out of compute gas/ }, 'out of gas');
  t.ok([20, 30].includes(spun!.line!) && spun!.gascompute > 9_000_000, 'in the loop, having used the limit');

  const stranger = encodeAddress(chain.network, newAccount(chain).key);
  const unpayable = await scTx(
    chain,
    alice,
    others[0]!,
    call(scid, 'PayTo', [{ name: 'to', datatype: 'S', value: stranger }]),
    {
      burn: 1000n,
    },
  );
  t.match(outcomeOf(unpayable), { status: 'failed', message: /which is not a registered account/ }, 'unpayable');
  t.notOk('line' in outcomeOf(unpayable)!, 'no line: the VM did not fail');

  const plain = buildTestTransfer(chain, alice, others[0]!.key, 10n);
  chain.pool.add(plain.bytes);
  await mineBlock(chain);
  t.equal(outcomeOf(plain.txid), undefined, 'a plain transfer has no call outcome');
});
