/**
 * examples/contracts/lottery.bas played through a ContractSession (store and balances carried between calls as the
 * chain would): docs/contracts.md § The sample contracts (the lottery's round, ownership hand-over and entry
 * points), and the commit/discard rule. Compute gas is derived by hand from the cost rules (5000 per non-empty
 * line, 800 per binary operator, each built-in its table cost; user calls, literals and variables are free).
 *
 * Winners are pinned with the RANDOM vectors of docs/contracts.md § Built-in functions: with SCID/BLID/TXID = aa…/bb…/cc… the first
 * draw is 15702298350473627070 (even, ≡ 0 mod 3); with SCID = 16 00…00 and BLID = TXID = 0 it is
 * 14580771250182742861 (odd, ≡ 1 mod 3).
 */
import t from 'tap';
import { OWNER_CHECK_GAS, payment, rawKeyWrite, S, U, uintWrite } from '../../../helpers/contract-args.js';
import { account, COIN_HEX, ContractSession, dvm, sampleContract } from '../../../helpers/dvm.js';

const d = await dvm();
const code = sampleContract('lottery');
const A = account(d.core, 1);
const B = account(d.core, 2);
const C = account(d.core, 3);

const coinTo = (address: string, amount: number) => payment(COIN_HEX, address, amount);

const VECTOR_EVEN = { scid: 'aa'.repeat(32), blid: 'bb'.repeat(32), txid: 'cc'.repeat(32) };
const VECTOR_ODD = { scid: '16' + '00'.repeat(31), blid: '00'.repeat(32), txid: '00'.repeat(32) };

/** A lottery installed by A (Initialize run as the install would). */
function installed(scid = 'ab'.repeat(32)): ContractSession {
  const s = new ContractSession(d, code, scid);
  const r = s.call('Initialize', { signer: A.address });
  if (!r.committed) throw new Error(`install failed: ${JSON.stringify(r)}`);
  return s;
}

/** The same contract after a committed UpdateCode: the new code with the old store and balances. */
function updated(s: ContractSession, newCode: string): ContractSession {
  const next = new ContractSession(d, newCode, s.scid);
  for (const [id, entry] of s.store) next.store.set(id, entry);
  for (const [asset, amount] of s.balances) next.balances.set(asset, amount);
  return next;
}

t.test('Initialize: owner is the installer, defaults stored, exact gas', async (t) => {
  const s = new ContractSession(d, code);
  const r = s.call('Initialize', { signer: A.address });
  t.equal(r.ok, true);
  t.equal(r.committed, true);
  t.equal(r.type, 'Uint64');
  t.equal(r.result, '0');
  t.equal(r.error, null);
  t.same(r.writes, [
    rawKeyWrite('owner', A.rawHex),
    uintWrite('lotteryeveryXdeposit', 2),
    uintWrite('lotterygiveback', 9900),
    uintWrite('deposit_count', 0),
    uintWrite('deposit_total', 0),
  ]);
  t.same(r.transfers, []);
  // 10 IF EXISTS("owner") …        5000 + EXISTS 5000                      = 10000
  // 20 VERSION("1.0.0")            5000 + VERSION 1000                     =  6000
  // 30 STORE("owner", SIGNER())    5000 + STORE 10000 + SIGNER 5000        = 20000
  // 40–70 four STOREs              4 × (5000 + 10000)                      = 60000
  // 80 RETURN 0                                                            =  5000
  t.equal(r.gas.compute, 10000 + 6000 + 20000 + 60000 + 5000);
});

t.test('Initialize cannot be re-run to steal ownership', async (t) => {
  const s = installed();
  for (const signer of [B.address, A.address, undefined]) {
    const r = s.call('Initialize', { signer });
    t.equal(r.committed, false, `re-Initialize by ${signer ?? 'anonymous'} is discarded`);
    t.equal(r.result, '1');
    t.same(r.writes, []);
    // 10 IF EXISTS("owner") THEN GOTO 100: 10000; 100 RETURN 1: 5000
    t.equal(r.gas.compute, 15000);
  }
  t.equal(s.get('owner'), A.rawHex, 'owner unchanged');
  t.equal(s.get('lotterygiveback'), 9900);
});

t.test('Lottery with value 0: returns 0 and changes nothing', async (t) => {
  const s = installed();
  const r = s.call('Lottery', { signer: B.address });
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.same(r.transfers, []);
  // 10 DIM 5000; 20 IF value == 0 5000 + 800; 200 RETURN 0 5000
  t.equal(r.gas.compute, 5000 + 5800 + 5000);
  t.equal(s.get('deposit_count'), 0);
  t.equal(s.get('deposit_total'), 0);
});

t.test('Lottery: value is the coin deposit, never an argument named value', async (t) => {
  const s = installed();
  const ignored = s.call('Lottery', { signer: B.address, args: [U('value', 999)] });
  t.equal(ignored.committed, true);
  t.same(ignored.writes, [], 'a U argument "value" does not bind: value = COINVALUE = 0');
  const r = s.call('Lottery', { signer: B.address, coinvalue: 10, args: [U('value', 999)] });
  t.same(r.writes, [
    uintWrite('deposit_total', 10),
    rawKeyWrite('depositor_address0', B.rawHex),
    uintWrite('deposit_count', 1),
  ]);
});

t.test('Lottery round: 45 then 55, the winner gets 99 and 1 stays (winner index 0)', async (t) => {
  const s = installed(VECTOR_EVEN.scid);
  const first = s.call('Lottery', { signer: A.address, coinvalue: 45, blid: VECTOR_EVEN.blid, txid: VECTOR_EVEN.txid });
  t.equal(first.committed, true);
  t.same(
    first.writes,
    [uintWrite('deposit_total', 45), rawKeyWrite('depositor_address0', A.rawHex), uintWrite('deposit_count', 1)],
    'deposit counted',
  );
  t.same(first.transfers, []);
  // 10 DIM                                                      5000
  // 20 IF value == 0                                            5000 + 800                  =  5800
  // 30 STORE("deposit_total", LOAD("deposit_total") + value)    5000 + 10000 + 5000 + 800   = 20800
  // 40 IF SIGNER() == ""                                        5000 + 5000 + 800           = 10800
  // 50 LET deposit_count = LOAD("deposit_count") + 1            5000 + 5000 + 800           = 10800
  // 60 STORE("depositor_address" + (deposit_count - 1), SIGNER())  5000 + 10000 + 2×800 + 5000 = 21600
  // 70 STORE("deposit_count", deposit_count)                    5000 + 10000                = 15000
  // 80 IF LOAD("lotteryeveryXdeposit") > deposit_count          5000 + 5000 + 800           = 10800
  // 200 RETURN 0                                                                            =  5000
  const collecting = 5000 + 5800 + 20800 + 10800 + 10800 + 21600 + 15000 + 10800;
  t.equal(first.gas.compute, collecting + 5000);
  t.equal(s.balance(), 45n);
  t.equal(s.get('deposit_total'), 45);

  const second = s.call('Lottery', {
    signer: B.address,
    coinvalue: 55,
    blid: VECTOR_EVEN.blid,
    txid: VECTOR_EVEN.txid,
  });
  t.equal(second.committed, true);
  t.equal(second.result, '0');
  t.same(second.transfers, [coinTo(A.address, 99)], '9900 × 100 / 10000 = 99 to depositor 0 (first draw is even)');
  t.same(
    second.writes,
    [uintWrite('deposit_total', 0), rawKeyWrite('depositor_address1', B.rawHex), uintWrite('deposit_count', 0)],
    'count and total reset',
  );
  // lines 10–80 as above, then
  // 90 LET winner = RANDOM(deposit_count)                       5000 + 2500                 =  7500
  // 100 SEND_COIN_TO_ADDRESS(LOAD("depositor_address" + winner),
  //       LOAD("lotterygiveback") * LOAD("deposit_total") / 10000)
  //                                  5000 + 70000 + 5000 + 800 + 5000 + 5000 + 800 + 800   = 92400
  // 110, 120 STORE(…, 0)                                        2 × 15000                   = 30000
  // 200 RETURN 0                                                                            =  5000
  t.equal(second.gas.compute, collecting + 7500 + 92400 + 30000 + 5000);
  t.equal(s.balance(), 1n, '1 stays in the contract');
  t.equal(s.get('deposit_count'), 0);
  t.equal(s.get('deposit_total'), 0);
});

t.test('Lottery round: the draw picks depositor 1 when RANDOM says so', async (t) => {
  const s = installed(VECTOR_ODD.scid);
  s.call('Lottery', { signer: A.address, coinvalue: 45, blid: VECTOR_ODD.blid, txid: VECTOR_ODD.txid });
  const r = s.call('Lottery', { signer: B.address, coinvalue: 55, blid: VECTOR_ODD.blid, txid: VECTOR_ODD.txid });
  t.equal(r.committed, true);
  t.same(r.transfers, [coinTo(B.address, 99)]);
  t.equal(s.balance(), 1n);
});

t.test('Lottery: a second round starts from zero and reuses the depositor slots', async (t) => {
  const s = installed(VECTOR_EVEN.scid);
  const ctx = { blid: VECTOR_EVEN.blid, txid: VECTOR_EVEN.txid };
  s.call('Lottery', { signer: A.address, coinvalue: 45, ...ctx });
  s.call('Lottery', { signer: B.address, coinvalue: 55, ...ctx });
  const third = s.call('Lottery', { signer: C.address, coinvalue: 200, ...ctx });
  t.same(third.writes, [
    uintWrite('deposit_total', 200),
    rawKeyWrite('depositor_address0', C.rawHex),
    uintWrite('deposit_count', 1),
  ]);
  const fourth = s.call('Lottery', { signer: B.address, coinvalue: 300, ...ctx });
  t.same(fourth.transfers, [coinTo(C.address, 495)], '9900 × 500 / 10000 = 495 to slot 0 (now C)');
  t.equal(s.balance(), 1n + 500n - 495n);
});

t.test('Lottery: anonymous deposits go into the pot without an entry', async (t) => {
  const s = installed(VECTOR_EVEN.scid);
  const ctx = { blid: VECTOR_EVEN.blid, txid: VECTOR_EVEN.txid };
  const anon = s.call('Lottery', { coinvalue: 100, ...ctx });
  t.equal(anon.committed, true);
  t.same(anon.writes, [uintWrite('deposit_total', 100)], 'only the total changes');
  // 10 DIM 5000; 20 IF value == 0 5800; 30 STORE(…LOAD(…) + value) 20800; 40 IF SIGNER() == "" 10800; 200 RETURN 5000
  t.equal(anon.gas.compute, 5000 + 5800 + 20800 + 10800 + 5000);
  t.equal(s.get('deposit_count'), 0, 'an anonymous deposit is not counted');
  const anonZero = s.call('Lottery', {});
  t.same(anonZero.writes, [], 'anonymous value 0 changes nothing');
  s.call('Lottery', { signer: A.address, coinvalue: 45, ...ctx });
  const round = s.call('Lottery', { signer: B.address, coinvalue: 55, ...ctx });
  t.same(round.transfers, [coinTo(A.address, 198)], '9900 × 200 / 10000: the anonymous 100 is in the pot');
  t.equal(s.balance(), 2n);
});

t.test('TuneLotteryParameters: owner only, validated, and the new round rules apply', async (t) => {
  const s = installed(VECTOR_ODD.scid);
  const tune = (signer: string | undefined, every: number, giveback: number) =>
    s.call('TuneLotteryParameters', {
      signer,
      args: [U('input', 0), U('lotteryeveryXdeposit', every), U('lotterygiveback', giveback)],
    });
  const other = tune(B.address, 3, 5000);
  t.equal(other.committed, false);
  t.equal(other.result, '1');
  // 10 IF isOwner() == 0 5800; isOwner: 10 IF SIGNER() == "" 10800, 20 RETURN LOAD("owner") == SIGNER() 15800; 100 RETURN 1 5000
  t.equal(other.gas.compute, OWNER_CHECK_GAS + 5000);
  const anon = tune(undefined, 3, 5000);
  t.equal(anon.result, '1', 'anonymous is never the owner');
  // 10: 5800; isOwner 10 IF SIGNER() == "" 10800, 100 RETURN 0 5000; 100 RETURN 1 5000
  t.equal(anon.gas.compute, 5800 + 10800 + 5000 + 5000);
  t.equal(tune(A.address, 0, 5000).result, '1', 'a threshold of 0 is refused');
  t.equal(tune(A.address, 3, 10001).result, '1', 'a payout above 10000/10000 is refused');
  t.equal(s.get('lotteryeveryXdeposit'), 2, 'unchanged by refused calls');

  const ok = tune(A.address, 3, 5000);
  t.equal(ok.committed, true);
  t.same(ok.writes, [uintWrite('lotteryeveryXdeposit', 3), uintWrite('lotterygiveback', 5000)]);
  // 10: 5800; isOwner 10800 + 15800; 20 IF a == 0 || b > 10000 5000 + 3×800 = 7400; 30, 40 STORE 2×15000; 50 RETURN 5000
  t.equal(ok.gas.compute, OWNER_CHECK_GAS + 7400 + 30000 + 5000);

  const missing = s.call('TuneLotteryParameters', {
    signer: A.address,
    args: [U('lotteryeveryXdeposit', 4), U('lotterygiveback', 1)],
  });
  t.equal(missing.ok, false, 'every Uint64 parameter needs its U argument');
  t.match(missing.error?.message, /input/);

  const ctx = { blid: VECTOR_ODD.blid, txid: VECTOR_ODD.txid };
  t.same(s.call('Lottery', { signer: A.address, coinvalue: 10, ...ctx }).transfers, []);
  t.same(s.call('Lottery', { signer: B.address, coinvalue: 20, ...ctx }).transfers, [], 'two deposits no longer draw');
  const round = s.call('Lottery', { signer: C.address, coinvalue: 33, ...ctx });
  t.same(
    round.transfers,
    [coinTo(B.address, 31)],
    '5000 × 63 / 10000 = 31 (integer division) to slot 1 (first draw ≡ 1 mod 3)',
  );
  t.equal(s.balance(), 63n - 31n);
});

t.test('Withdraw: owner only; more than the balance panics and discards', async (t) => {
  const s = installed();
  s.call('Lottery', { coinvalue: 10 });
  t.equal(s.balance(), 10n);
  const other = s.call('Withdraw', { signer: B.address, args: [U('amount', 5)] });
  t.equal(other.committed, false);
  t.equal(other.result, '1');
  t.same(other.transfers, []);
  t.equal(s.call('Withdraw', { args: [U('amount', 5)] }).result, '1', 'anonymous: 1');

  const tooMuch = s.call('Withdraw', { signer: A.address, args: [U('amount', 11)] });
  t.equal(tooMuch.ok, false);
  t.equal(tooMuch.committed, false);
  t.equal(tooMuch.type, null);
  t.equal(tooMuch.error?.phase, 'run');
  t.equal(tooMuch.error?.function, 'Withdraw');
  t.equal(tooMuch.error?.line, 20);
  t.match(tooMuch.error?.message, /insufficient/);
  t.same(tooMuch.writes, []);
  t.same(tooMuch.transfers, []);
  t.equal(s.balance(), 10n, 'balance unchanged');

  const ok = s.call('Withdraw', { signer: A.address, args: [U('amount', 10)] });
  t.equal(ok.committed, true);
  t.same(ok.writes, []);
  t.same(ok.transfers, [coinTo(A.address, 10)]);
  // 10 IF isOwner() == 0 5800; isOwner 10800 + 15800; 20 SEND_COIN_TO_ADDRESS(SIGNER(), amount) 5000 + 70000 + 5000; 30 RETURN 5000
  t.equal(ok.gas.compute, OWNER_CHECK_GAS + 80000 + 5000);
  t.equal(s.balance(), 0n);
});

t.test('ownership hand-over: TransferOwnership and ClaimOwnership', async (t) => {
  const s = installed();
  const transfer = (signer: string | undefined, to: string) =>
    s.call('TransferOwnership', { signer, args: [S('newowner', to)] });

  const byOther = transfer(B.address, B.address);
  t.equal(byOther.committed, false);
  t.equal(byOther.result, '1');
  t.same(byOther.writes, []);
  t.equal(transfer(undefined, B.address).result, '1', 'anonymous: 1');
  t.equal(transfer(A.address, 'not an address').result, '1', 'an invalid new owner is refused');

  const noPending = s.call('ClaimOwnership', { signer: B.address });
  t.equal(noPending.result, '1', 'nothing pending: 1');
  // 10 IF EXISTS("tmpowner") == 0 5000 + 5000 + 800; 100 RETURN 1 5000
  t.equal(noPending.gas.compute, 10800 + 5000);

  const byOwner = transfer(A.address, B.address);
  t.equal(byOwner.committed, true);
  t.equal(byOwner.result, '0');
  t.same(byOwner.writes, [rawKeyWrite('tmpowner', B.rawHex)], 'pending = raw form of the new owner');
  // 10 IF isOwner() == 0 5800; isOwner 10800 + 15800; 20 IF ADDRESS_RAW(newowner) == "" 5000 + 60000 + 800;
  // 30 STORE("tmpowner", ADDRESS_RAW(newowner)) 5000 + 10000 + 60000; 40 RETURN 5000
  t.equal(byOwner.gas.compute, OWNER_CHECK_GAS + 65800 + 75000 + 5000);
  t.equal(s.get('owner'), A.rawHex, 'the owner stays A until the claim');
  t.equal(s.call('Withdraw', { signer: B.address, args: [U('amount', 0)] }).result, '1', 'B cannot act as owner yet');
  t.equal(s.call('Withdraw', { signer: A.address, args: [U('amount', 0)] }).result, '0', 'A still can');

  const wrongClaim = s.call('ClaimOwnership', { signer: C.address });
  t.equal(wrongClaim.committed, false);
  t.equal(wrongClaim.result, '1');
  // 10: 10800; 20 IF LOAD("tmpowner") != SIGNER() 5000 + 5000 + 800 + 5000; 100 RETURN 1 5000
  t.equal(wrongClaim.gas.compute, 10800 + 15800 + 5000);
  t.equal(s.call('ClaimOwnership', {}).result, '1', 'anonymous claim: 1');
  t.equal(s.call('ClaimOwnership', { signer: A.address }).result, '1', 'the old owner cannot claim');

  const claim = s.call('ClaimOwnership', { signer: B.address });
  t.equal(claim.committed, true);
  t.same(claim.writes, [rawKeyWrite('owner', B.rawHex), { ktype: 'S', key: 'tmpowner', deleted: true }]);
  // 10: 10800; 20: 15800; 30 STORE("owner", SIGNER()) 20000; 40 DELETE("tmpowner") 5000 + 3000; 50 RETURN 5000
  t.equal(claim.gas.compute, 10800 + 15800 + 20000 + 8000 + 5000);
  t.equal(s.get('owner'), B.rawHex);
  t.equal(s.get('tmpowner'), undefined);
  t.equal(s.call('Withdraw', { signer: A.address, args: [U('amount', 0)] }).result, '1', 'A is no longer owner');
  t.equal(
    s.call('TuneLotteryParameters', {
      signer: B.address,
      args: [U('input', 0), U('lotteryeveryXdeposit', 5), U('lotterygiveback', 1)],
    }).result,
    '0',
    'B is',
  );
  t.equal(s.call('ClaimOwnership', { signer: B.address }).result, '1', 'a claim works once');
});

t.test('UpdateCode: owner only; new code takes effect, state kept; uncompilable code refused', async (t) => {
  const s = installed();
  const newCode =
    'Function IsOwner() Uint64\n10 IF LOAD("owner") == SIGNER() THEN GOTO 30\n20 RETURN 1\n30 RETURN 0\nEnd Function\n';
  const other = s.call('UpdateCode', { signer: B.address, args: [S('code', newCode)] });
  t.equal(other.committed, false);
  t.equal(other.result, '1');
  t.same(other.writes, []);

  const broken = s.call('UpdateCode', {
    signer: A.address,
    args: [S('code', 'Function F() Uint64\n10 RETURN 1 +\nEnd Function\n')],
  });
  t.equal(broken.ok, false, 'code that does not compile is refused');
  t.equal(broken.committed, false);
  t.equal(broken.error?.function, 'UpdateCode');
  t.equal(broken.error?.line, 20);
  t.match(broken.error?.message, /does not compile/);
  t.same(broken.writes, []);
  const undeclared = s.call('UpdateCode', {
    signer: A.address,
    args: [S('code', 'Function F() Uint64\n10 RETURN x\nEnd Function\n')],
  });
  t.equal(undeclared.committed, false, 'an undeclared variable is a compile error too');

  const ok = s.call('UpdateCode', { signer: A.address, args: [S('code', newCode)] });
  t.equal(ok.committed, true);
  t.equal(ok.code, newCode, 'the new code is returned beside the writes');
  t.same(ok.writes, []);
  // 10 IF isOwner() == 0 5800; isOwner 10800 + 15800; 20 UPDATE_SC_CODE(code) 5000 + 5000; 30 RETURN 5000
  t.equal(ok.gas.compute, OWNER_CHECK_GAS + 10000 + 5000);

  const next = updated(s, ok.code!);
  t.equal(next.call('IsOwner', { signer: A.address }).result, '0', 'the new entry point runs against the kept owner');
  t.equal(next.call('IsOwner', { signer: B.address }).result, '1');
  t.throws(
    () => next.call('Lottery', { signer: A.address, coinvalue: 1 }),
    /has no function Lottery \(entry points: IsOwner\)/,
    'old entry points are gone',
  );
});
