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
import { mineBlock } from '../../helpers/chain.js';
import { callArgs, fundedChain, installArgs, outcomeOf, sendContractTx } from '../../helpers/contract-chain.js';
import { balanceOf, buildTestTransfer, newAccount, premineAccount, premineBalance } from '../../helpers/transfers.js';

const tokenCode = readFileSync('examples/contracts/token.bas', 'utf8');

t.test('install a token contract, issue tokens for a deposit, and hold them as an encrypted balance', async (t) => {
  const { chain, alice, others } = await fundedChain();
  t.equal(
    await sendContractTx(chain, alice, others[0]!, installArgs(tokenCode)).then((id) =>
      chain.chain.stateAt().contracts.exists(id),
    ),
    false,
    'a fee below the storage gas of the code: the install is discarded',
  );
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(tokenCode), { fee: 5000n });
  const contracts = chain.chain.stateAt().contracts;
  t.ok(contracts.exists(scid), 'SCID = the install txid');
  t.equal(contracts.code(scid), tokenCode);
  t.ok(contracts.isPrivate(scid), 'InitializePrivate makes a private contract');
  t.equal(balanceOf(chain, alice, scid), 1_600_000n, 'the initializer granted the installer 1 600 000 tokens');
  t.equal(balanceOf(chain, alice), 1_000_000n - 5500n, 'both installs paid their fees');

  await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'IssueTOKENX'), { burn: 5000n });
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
  const { chain, alice, others } = await fundedChain();
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(boom), { fee: 1500n });
  await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Boom'), { burn: 7000n });
  t.equal(balanceOf(chain, alice), 1_000_000n - 2000n, 'ring 2: the deposit came back, the fee did not');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 0n);

  await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Boom'), { burn: 7000n, ringSize: 4 });
  t.equal(balanceOf(chain, alice), 1_000_000n - 2500n - 7000n, 'ring 4: the deposit is lost');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 0n, 'and does not reach the contract');

  await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Keep'), { burn: 3000n, ringSize: 4 });
  t.equal(chain.chain.stateAt().contracts.variable(scid, 'kept'), 3000n, 'an anonymous call commits');
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 3000n);

  await sendContractTx(
    chain,
    alice,
    others[0]!,
    callArgs(scid, 'Pay', [{ name: 'amount', datatype: 'U', value: 2500n }]),
  );
  t.equal(chain.chain.stateAt().contracts.balance(scid, NATIVE_SCID), 500n, 'the payout left the contract');
  t.equal(balanceOf(chain, alice), 1_000_000n - 3500n - 7000n - 3000n + 2500n, 'and reached the signer');
});

t.test('the pool refuses contract transactions that cannot run', async (t) => {
  const { chain, alice, others } = await fundedChain();
  const refuse = (args: RpcArgument[], pattern: RegExp, name: string) =>
    t.throws(
      () => chain.pool.add(buildTestTransfer(chain, alice, others[0]!.key, 0n, { scArgs: args }).bytes),
      pattern,
      name,
    );
  refuse(
    installArgs('Function Initialize() Uint64\n10 RETURN 0 0\nEnd Function'),
    /does not compile/,
    'code that does not compile',
  );
  refuse(installArgs('Function Other() Uint64\n10 RETURN 0\nEnd Function'), /no Initialize/, 'no initializer');
  refuse([{ name: 'SC_ACTION', datatype: 'U', value: 1n }], /SC_CODE/, 'install without code');
  refuse([{ name: 'SC_ACTION', datatype: 'U', value: 7n }], /SC_ACTION/, 'unknown action');
  refuse(callArgs(new Uint8Array(32).fill(9), 'Anything'), /there is no contract/, 'unknown contract');
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(boom), { fee: 1500n });
  refuse(callArgs(scid, 'Missing'), /has no function Missing/, 'unknown entry point');
  t.equal(chain.pool.size, 0);
});

t.test('the lottery pays a depositor 9900/10000 of the pot after two plays, twice', async (t) => {
  const { chain, alice, others } = await fundedChain();
  const [bob] = others;
  chain.pool.add(
    buildTestTransfer(chain, premineAccount(chain), bob!.key, 1_000_000n, {
      senderBalance: premineBalance(chain, 1_000_000n),
    }).bytes,
  );
  await mineBlock(chain);
  const scid = await sendContractTx(
    chain,
    alice,
    bob!,
    installArgs(readFileSync('examples/contracts/lottery.bas', 'utf8')),
    {
      fee: 8000n,
    },
  );
  t.ok(chain.chain.stateAt().contracts.exists(scid));
  let aliceSpent = 8000n;
  let bobSpent = 0n;
  for (let round = 0; round < 2; round++) {
    await sendContractTx(chain, alice, bob!, callArgs(scid, 'Lottery'), { burn: 10_000n });
    await sendContractTx(chain, bob!, alice, callArgs(scid, 'Lottery'), { burn: 10_000n });
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
  const { chain, alice, others } = await fundedChain();
  const nameService = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
  const before = chain.chain.top;
  await sendContractTx(
    chain,
    alice,
    others[0]!,
    callArgs(nameService, 'Register', [{ name: 'name', datatype: 'S', value: 'alice.umbra' }]),
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
  const { chain, alice, others } = await fundedChain();
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(outcomes), { fee: 2000n });
  t.match(outcomeOf(chain, scid), { status: 'committed', code: 0 }, 'an install is a call of its Initialize');
  t.ok(outcomeOf(chain, scid)!.gascompute > 0, 'with the compute gas it used');

  const committed = await sendContractTx(
    chain,
    alice,
    others[0]!,
    callArgs(scid, 'PayTo', [{ name: 'to', datatype: 'S', value: encodeAddress(chain.network, others[1]!.key) }]),
    { burn: 1000n },
  );
  t.same(outcomeOf(chain, committed), {
    status: 'committed',
    code: 0,
    gascompute: outcomeOf(chain, committed)!.gascompute,
  });

  const returned = await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Code'));
  t.same(outcomeOf(chain, returned), {
    status: 'returned',
    code: 7,
    gascompute: outcomeOf(chain, returned)!.gascompute,
  });

  const panicked = outcomeOf(chain, await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Fail')));
  t.match(panicked, { status: 'failed', message: /panic.*\(in Fail line 20\)/i, line: 20 }, 'a panic, with its line');
  t.notOk('code' in panicked!, 'a failure has no return code');

  t.match(
    outcomeOf(chain, await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Text'))),
    { status: 'failed', message: /returned a String/ },
    'a String return value is a failure',
  );
  const spun = outcomeOf(chain, await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'Spin')));
  t.match(spun, { status: 'failed', message: /out of compute gas/ }, 'out of gas');
  t.ok([20, 30].includes(spun!.line!) && spun!.gascompute > 9_000_000, 'in the loop, having used the limit');

  const stranger = encodeAddress(chain.network, newAccount(chain).key);
  const unpayable = await sendContractTx(
    chain,
    alice,
    others[0]!,
    callArgs(scid, 'PayTo', [{ name: 'to', datatype: 'S', value: stranger }]),
    {
      burn: 1000n,
    },
  );
  t.match(outcomeOf(chain, unpayable), { status: 'failed', message: /which is not a registered account/ }, 'unpayable');
  t.notOk('line' in outcomeOf(chain, unpayable)!, 'no line: the VM did not fail');

  const plain = buildTestTransfer(chain, alice, others[0]!.key, 10n);
  chain.pool.add(plain.bytes);
  await mineBlock(chain);
  t.equal(outcomeOf(chain, plain.txid), undefined, 'a plain transfer has no call outcome');
});
