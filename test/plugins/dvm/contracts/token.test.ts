/**
 * examples/contracts/token.bas (private token TOKENX: its asset id is its SCID) played through a ContractSession:
 * InitializePrivate's grant, IssueTOKENX and ConvertTOKENX at 1:1, Withdraw, the ownership hand-over and UpdateCode.
 * Compute gas is derived by hand: 5000 per non-empty line, 800 per binary operator, each built-in its table cost.
 */
import t from 'tap';
import { OWNER_CHECK_GAS, payment, rawKeyWrite, S, U } from '../../../helpers/contract-args.js';
import { account, COIN_HEX, ContractSession, dvm, sampleContract } from '../../../helpers/dvm.js';

const d = await dvm();
const code = sampleContract('token');
const SCID = 'cd'.repeat(32);
const A = account(d.core, 1);
const B = account(d.core, 2);
const C = account(d.core, 3);

function installed(): ContractSession {
  const s = new ContractSession(d, code, SCID);
  const r = s.call('InitializePrivate', { signer: A.address });
  if (!r.committed) throw new Error(`install failed: ${JSON.stringify(r)}`);
  return s;
}

t.test('InitializePrivate grants the installer 1600000 TOKENX and stores the owner', async (t) => {
  const s = new ContractSession(d, code, SCID);
  const r = s.call('InitializePrivate', { signer: A.address });
  t.equal(r.ok, true);
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, [rawKeyWrite('owner', A.rawHex), { ktype: 'S', key: 'symbol', vtype: 'S', value: 'TOKENX' }]);
  t.same(r.transfers, [payment(SCID, A.address, 1600000)], 'its own asset: asset id = SCID');
  // 10 IF EXISTS("owner")                                5000 + 5000                          = 10000
  // 20 IF SIGNER() == ""                                 5000 + 5000 + 800                    = 10800
  // 30 VERSION("1.0.0")                                  5000 + 1000                          =  6000
  // 40 STORE("owner", SIGNER())                          5000 + 10000 + 5000                  = 20000
  // 45 STORE("symbol", "TOKENX")                         5000 + 10000                         = 15000
  // 50 SEND_ASSET_TO_ADDRESS(SIGNER(), 1600000, SCID())  5000 + 90000 + 5000 + 2000           = 102000
  // 60 RETURN 0                                                                               =  5000
  t.equal(r.gas.compute, 10000 + 10800 + 6000 + 20000 + 15000 + 102000 + 5000);
  t.equal(s.balance(), 0n, 'minting its own asset needs no balance');
});

t.test('InitializePrivate: once only, and not for an anonymous installer', async (t) => {
  const s = installed();
  const again = s.call('InitializePrivate', { signer: B.address });
  t.equal(again.committed, false);
  t.equal(again.result, '1');
  t.same(again.transfers, [], 'no second grant');
  t.equal(again.gas.compute, 10000 + 5000, '10 IF EXISTS 10000; 100 RETURN 1 5000');
  t.equal(s.get('owner'), A.rawHex);

  const anon = new ContractSession(d, code, SCID).call('InitializePrivate', {});
  t.equal(anon.committed, false);
  t.equal(anon.result, '1');
  t.same(anon.writes, []);
  t.same(anon.transfers, []);
});

t.test('IssueTOKENX pays as much TOKENX as coin deposited; the coin stays', async (t) => {
  const s = installed();
  const r = s.call('IssueTOKENX', { signer: B.address, coinvalue: 500 });
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.same(r.transfers, [payment(SCID, B.address, 500)]);
  // 10 IF SIGNER() == "" 10800; 20 SEND_ASSET_TO_ADDRESS(SIGNER(), COINVALUE(), SCID()) 5000 + 90000 + 5000 + 10000 + 2000; 30 RETURN 5000
  t.equal(r.gas.compute, 10800 + 112000 + 5000);
  t.equal(s.balance(), 500n);

  const none = s.call('IssueTOKENX', { signer: B.address });
  t.equal(none.committed, true, 'no coin: nothing to issue, still 0');
  t.same(none.transfers, []);

  const anon = s.call('IssueTOKENX', { coinvalue: 100 });
  t.equal(anon.committed, false, 'anonymous: 1, the deposit is not taken');
  t.equal(anon.result, '1');
  t.same(anon.transfers, []);
  t.equal(s.balance(), 500n);
});

t.test('ConvertTOKENX pays as much coin as TOKENX deposited; refused when the contract lacks the coin', async (t) => {
  const s = installed();
  s.call('IssueTOKENX', { signer: B.address, coinvalue: 300 });
  const r = s.call('ConvertTOKENX', { signer: B.address, assets: { [SCID]: 200 } });
  t.equal(r.committed, true);
  t.same(r.writes, []);
  t.same(r.transfers, [payment(COIN_HEX, B.address, 200)]);
  // 10 IF SIGNER() == "" 10800; 20 SEND_COIN_TO_ADDRESS(SIGNER(), ASSETVALUE(SCID())) 5000 + 70000 + 5000 + 10000 + 2000; 30 RETURN 5000
  t.equal(r.gas.compute, 10800 + 92000 + 5000);
  t.equal(s.balance(), 100n);
  t.equal(s.balance(SCID), 0n, 'deposited TOKENX is not a balance of the contract');

  const tooMuch = s.call('ConvertTOKENX', { signer: C.address, assets: { [SCID]: 101 } });
  t.equal(tooMuch.ok, false, 'more than the coin held: panic');
  t.equal(tooMuch.committed, false);
  t.equal(tooMuch.error?.function, 'ConvertTOKENX');
  t.equal(tooMuch.error?.line, 20);
  t.match(tooMuch.error?.message, /insufficient coin/);
  t.same(tooMuch.transfers, []);
  t.equal(s.balance(), 100n, 'discarded: balance unchanged');

  const coinIsNotTokenx = s.call('ConvertTOKENX', { signer: C.address, coinvalue: 50 });
  t.equal(coinIsNotTokenx.committed, true, 'coin sent to ConvertTOKENX converts nothing');
  t.same(coinIsNotTokenx.transfers, []);

  const anon = s.call('ConvertTOKENX', { assets: { [SCID]: 10 } });
  t.equal(anon.result, '1', 'anonymous: 1');
  t.same(anon.transfers, []);
});

t.test('Withdraw: owner only; more than the balance panics', async (t) => {
  const s = installed();
  s.call('IssueTOKENX', { signer: B.address, coinvalue: 40 });
  const other = s.call('Withdraw', { signer: B.address, args: [U('amount', 10)] });
  t.equal(other.committed, false);
  t.equal(other.result, '1');
  t.same(other.transfers, []);
  const tooMuch = s.call('Withdraw', { signer: A.address, args: [U('amount', 41)] });
  t.equal(tooMuch.ok, false);
  t.match(tooMuch.error?.message, /insufficient/);
  t.equal(s.balance(), 40n);
  const ok = s.call('Withdraw', { signer: A.address, args: [U('amount', 40)] });
  t.equal(ok.committed, true);
  t.same(ok.transfers, [payment(COIN_HEX, A.address, 40)]);
  // owner check; 20 SEND_COIN_TO_ADDRESS(SIGNER(), amount) 5000 + 70000 + 5000; 30 RETURN 5000
  t.equal(ok.gas.compute, OWNER_CHECK_GAS + 80000 + 5000);
  t.equal(s.balance(), 0n);
});

t.test('ownership hand-over', async (t) => {
  const s = installed();
  const transfer = (signer: string | undefined, to: string) =>
    s.call('TransferOwnership', { signer, args: [S('newowner', to)] });
  t.equal(transfer(B.address, B.address).result, '1', 'non-owner: 1');
  t.equal(transfer(undefined, B.address).result, '1', 'anonymous: 1');
  t.equal(s.call('ClaimOwnership', { signer: B.address }).result, '1', 'nothing pending: 1');

  const byOwner = transfer(A.address, B.address);
  t.equal(byOwner.committed, true);
  t.same(byOwner.writes, [rawKeyWrite('tmpowner', B.rawHex)]);
  // owner check; 20 IF ADDRESS_RAW(newowner) == "" 65800; 30 STORE("tmpowner", ADDRESS_RAW(newowner)) 75000; 40 RETURN 5000
  t.equal(byOwner.gas.compute, OWNER_CHECK_GAS + 65800 + 75000 + 5000);
  t.equal(s.get('owner'), A.rawHex, 'owner unchanged until the claim');

  const wrong = s.call('ClaimOwnership', { signer: C.address });
  t.equal(wrong.committed, false);
  t.equal(wrong.result, '1');
  t.same(wrong.writes, []);

  const claim = s.call('ClaimOwnership', { signer: B.address });
  t.equal(claim.committed, true);
  t.same(claim.writes, [rawKeyWrite('owner', B.rawHex), { ktype: 'S', key: 'tmpowner', deleted: true }]);
  t.equal(s.get('owner'), B.rawHex);
  t.equal(s.call('Withdraw', { signer: A.address, args: [U('amount', 0)] }).result, '1', 'the old owner is out');
  t.equal(s.call('Withdraw', { signer: B.address, args: [U('amount', 0)] }).result, '0', 'the new owner is in');
});

t.test('UpdateCode: owner only; refuses code that does not compile', async (t) => {
  const s = installed();
  const newCode = 'Function Hello() Uint64\n10 RETURN 0\nEnd Function\n';
  t.equal(s.call('UpdateCode', { signer: B.address, args: [S('code', newCode)] }).result, '1');
  const broken = s.call('UpdateCode', {
    signer: A.address,
    args: [S('code', 'Function Hello() Uint64\n10 GOTO 20\nEnd Function\n')],
  });
  t.equal(broken.ok, false, 'a missing jump target does not compile');
  t.same(broken.writes, []);
  const ok = s.call('UpdateCode', { signer: A.address, args: [S('code', newCode)] });
  t.equal(ok.committed, true);
  t.equal(ok.code, newCode, 'the new code is returned beside the writes');
  t.same(ok.writes, []);
});
