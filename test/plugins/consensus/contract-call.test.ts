/**
 * One rule book for a contract call: for every way a call can fail, NODE.GetGasEstimate (the wallet's trial before
 * paying) and the chain say the same thing when the same call is sent — the pool's and a block's refusal of a call
 * that cannot run, or the outcome the block records for one that runs. And a trial sees the next block's height and
 * time, as the mined call does.
 */
import t from 'tap';
import { curvePointCheck, decodeAddress, encodeAddress } from '../../../protocol/address.js';
import { nextBlockTimestamp } from '../../../protocol/block.js';
import { equalBytes, toHex } from '../../../protocol/bytes.js';
import { outcomeFailure } from '../../../protocol/contract-outcome.js';
import { rpcArgumentToExactJson, type RpcArgument } from '../../../protocol/rpc-arguments.js';
import { coinbaseTx } from '../../../protocol/transaction.js';
import { gasEstimateMethod } from '../../../plugins/consensus/rpc/gas-estimate-method.js';
import type { TestChain } from '../../helpers/chain.js';
import {
  callArgs,
  fundedChain,
  installArgs,
  outcomeOf,
  sendContractTx,
  type ContractTxOptions,
} from '../../helpers/contract-chain.js';
import { buildTestTransfer, newAccount, type Account } from '../../helpers/transfers.js';

const FAILING = `Function Initialize() Uint64
10 RETURN 0
End Function

Function Fail() Uint64
10 DIM unused AS Uint64
20 PANIC()
End Function

Function Code() Uint64
10 RETURN 7
End Function

Function Text() String
10 RETURN "no"
End Function

Function Nothing()
10 RETURN
End Function

Function Spin() Uint64
10 DIM i AS Uint64
20 LET i = i + 1
30 GOTO 20
End Function

Function Keep(n Uint64, s String) Uint64
10 STORE(s, n)
20 RETURN 0
End Function

Function Big() Uint64
10 STORE("big", "${'x'.repeat(300)}")
20 RETURN 0
End Function

Function Paid() Uint64
10 IF COINVALUE() >= 1000 THEN GOTO 30
20 RETURN 1
30 RETURN 0
End Function

Function PayBack(amount Uint64) Uint64
10 SEND_COIN_TO_ADDRESS(SIGNER(), amount)
20 RETURN 0
End Function

Function PayTo(to String) Uint64
10 SEND_COIN_TO_ADDRESS(to, 100)
20 RETURN 0
End Function

Function Known() Uint64
10 IF SIGNER() == "" THEN GOTO 30
20 RETURN 0
30 RETURN 1
End Function

Function AtHeight(h Uint64) Uint64
10 IF BLOCK_HEIGHT() == h THEN GOTO 30
20 RETURN 1
30 RETURN 0
End Function

Function NotBefore(s Uint64) Uint64
10 IF BLOCK_TIMESTAMP() >= s THEN GOTO 30
20 RETURN 1
30 RETURN 0
End Function

Function hidden() Uint64
10 RETURN 0
End Function
`;

const u = (name: string, value: bigint): RpcArgument => ({ name, datatype: 'U', value });
const s = (name: string, value: string): RpcArgument => ({ name, datatype: 'S', value });

/** NODE.GetGasEstimate on the test chain, as the wallet asks it: its error message, or the compute gas of a call that would commit. */
function trialOf(chain: TestChain) {
  const method = gasEstimateMethod({
    chain: chain.chain,
    contractVm: chain.contractVm,
    keyOf: (address) => decodeAddress(address, chain.network, curvePointCheck(chain.core)).publicKey,
    now: () => chain.clock.now,
  });
  return (
    from: Account,
    args: RpcArgument[],
    options: ContractTxOptions = {},
  ): { error?: string; gascompute?: number } => {
    const params = method.params(
      {
        sc_rpc: args.map(rpcArgumentToExactJson),
        transfers: [{ burn: options.burn ?? 0n }],
        ...((options.ringSize ?? 2) === 2 && { signer: encodeAddress(chain.network, from.key) }),
        fee: options.fee ?? 500n,
      },
      'params',
    );
    try {
      return { gascompute: (method.handler(params, { transport: 'internal' }) as { gascompute: number }).gascompute };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
}

/** Why a block on the top refuses a transaction, as the template builder hears it. */
function blockRefusal(chain: TestChain, txid: Uint8Array, bytes: Uint8Array): string | undefined {
  chain.chain.addTransactionSource((id) => (equalBytes(id, txid) ? bytes : undefined));
  const top = chain.chain.top;
  let refusal: string | undefined;
  chain.chain.computeStateRoot(
    {
      majorVersion: 1,
      minorVersion: 1,
      timestamp: nextBlockTimestamp(chain.clock.now, top.timestamp),
      height: top.height + 1n,
      minerTx: coinbaseTx(chain.premine),
      stateRoot: new Uint8Array(32),
      tips: [top.id],
      miniblocks: [],
      txHashes: [txid],
    },
    (_, reason) => {
      refusal = reason;
    },
  );
  return refusal;
}

t.test('a call that cannot run: the trial gives the refusal of the pool and of a block', async (t) => {
  const { chain, alice, others } = await fundedChain();
  const trial = trialOf(chain);
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(FAILING), { fee: 20_000n });
  const refused = (args: RpcArgument[], expected: RegExp, name: string): void => {
    const built = buildTestTransfer(chain, alice, others[0]!.key, 0n, { scArgs: args, fee: 500n });
    const pool = t.throws(() => chain.pool.add(built.bytes), name) as Error;
    t.match(pool.message, expected, `${name}: the pool's words`);
    t.equal(trial(alice, args).error, pool.message, `${name}: the trial's`);
    t.equal(blockRefusal(chain, built.txid, built.bytes), `transaction ${toHex(built.txid)}: ${pool.message}`, name);
  };
  refused(callArgs(new Uint8Array(32).fill(9), 'F'), /^there is no contract 0909/, 'not installed');
  refused(
    callArgs(scid, 'Missing'),
    new RegExp(`^contract ${toHex(scid)} has no function Missing \\(entry points: Initialize, Fail, Code, `),
    'unknown entry point',
  );
  refused(
    callArgs(scid, 'hidden'),
    /^hidden is private: only functions whose name starts with a capital letter are entry points$/,
    'private function',
  );
  refused(
    installArgs('Function Initialize() Uint64\n10 RETURN 0 0\nEnd Function'),
    /^the contract does not compile: Initialize line 10: .*\(source line 2\)$/,
    'code that does not compile',
  );
  refused(
    installArgs('Function Other() Uint64\n10 RETURN 0\nEnd Function'),
    /^the contract has no Initialize or InitializePrivate function$/,
    'no initializer',
  );

  const malformed = [u('SC_ACTION', 0n), s('entrypoint', 'F')];
  const built = buildTestTransfer(chain, alice, others[0]!.key, 0n, { scArgs: malformed });
  const pool = t.throws(() => chain.pool.add(built.bytes)) as Error;
  t.equal(pool.message, 'a call needs SC_ID (datatype H) and entrypoint (datatype S)');
  t.match(
    trial(alice, malformed).error,
    `invalid params: ${pool.message}`,
    'malformed arguments: invalid params, same words',
  );
  t.equal(chain.pool.size, 0);
});

t.test('a call that runs: the trial says what the block records', async (t) => {
  const { chain, alice, others } = await fundedChain();
  const trial = trialOf(chain);
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(FAILING), { fee: 20_000n });
  const stranger = encodeAddress(chain.network, newAccount(chain).key);

  /** Tries the call, sends it, and checks that the trial foretold the recorded outcome. */
  const same = async (
    name: string,
    entrypoint: string,
    args: RpcArgument[],
    expected: RegExp | undefined,
    options: ContractTxOptions = {},
  ): Promise<void> => {
    const call = callArgs(scid, entrypoint, args);
    const foretold = trial(alice, call, options);
    const outcome = outcomeOf(chain, await sendContractTx(chain, alice, others[0]!, call, options))!;
    const failure = outcomeFailure(outcome);
    if (expected === undefined) t.equal(outcome.status, 'committed', `${name}: committed`);
    else t.match(failure, expected, `${name}: ${failure}`);
    t.equal(foretold.error, failure === undefined ? undefined : `the call would fail: ${failure}`, `${name}: foretold`);
    if (failure === undefined) t.equal(foretold.gascompute, outcome.gascompute, `${name}: at the gas it used`);
  };

  await same('a non-zero return', 'Code', [], /^the entry point returned 7 \(only Uint64 0 commits\)$/);
  await same('a String return', 'Text', [], /returned a String/);
  await same('no return value', 'Nothing', [], /returned no value/);
  await same('a panic, with its place', 'Fail', [], /^PANIC.* \(in Fail line 20\)$/i);
  await same('out of compute gas', 'Spin', [], /^out of compute gas/);
  await same('out of storage gas under the fee', 'Big', [], /^out of storage gas \(limit 200, /, { fee: 200n });
  await same('the same call with fee enough', 'Big', [], undefined, { fee: 2000n });
  await same('a missing argument', 'Keep', [s('s', 'k')], /parameter n \(Uint64\) needs an argument n of datatype U/);
  await same('a wrong-typed argument', 'Keep', [s('n', '1'), s('s', 'k')], /parameter n \(Uint64\)/);
  await same('arguments that bind', 'Keep', [u('n', 1n), s('s', 'k')], undefined);
  await same('no deposit where one is needed', 'Paid', [], /returned 1/, { burn: 999n });
  await same('the deposit needed', 'Paid', [], undefined, { burn: 1000n });
  await same('paying out more than it holds', 'PayBack', [u('amount', 5000n)], /insufficient .*sending 5000/, {
    burn: 10n,
  });
  await same('a payment to an unregistered key', 'PayTo', [s('to', stranger)], /is not a registered account$/, {
    burn: 100n,
  });
  await same('an anonymous sender where one must be known', 'Known', [], /returned 1/, { ringSize: 4 });
  await same('a known sender', 'Known', [], undefined);
});

t.test("a trial runs in the next block: its height, and a time not before the node's clock", async (t) => {
  const { chain, alice, others } = await fundedChain();
  const trial = trialOf(chain);
  const scid = await sendContractTx(chain, alice, others[0]!, installArgs(FAILING), { fee: 20_000n });
  const next = chain.chain.top.height + 1n;
  t.equal(trial(alice, callArgs(scid, 'AtHeight', [u('h', next)])).error, undefined, 'the next height');
  t.match(trial(alice, callArgs(scid, 'AtHeight', [u('h', next - 1n)])).error, /returned 1/, "not the top's");
  const now = chain.clock.now / 1000n;
  t.equal(trial(alice, callArgs(scid, 'NotBefore', [u('s', now)])).error, undefined, 'the time now');
  t.match(trial(alice, callArgs(scid, 'NotBefore', [u('s', now + 60n)])).error, /returned 1/, 'not a later one');
  const mined = await sendContractTx(chain, alice, others[0]!, callArgs(scid, 'AtHeight', [u('h', next)]));
  t.equal(outcomeOf(chain, mined)?.status, 'committed', 'the mined call ran at that height');
});
