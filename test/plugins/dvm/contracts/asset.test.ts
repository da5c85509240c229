/**
 * examples/contracts/asset.bas (a minimal private asset): InitializePrivate does nothing, IssueAsset pays the
 * signer as many units of the contract's own asset (asset id = SCID) as coin deposited, the coin stays.
 * Compute gas is derived by hand: 5000 per non-empty line, 800 per binary operator, each built-in its table cost.
 */
import t from 'tap';
import { account, ContractSession, dvm, sampleContract } from '../../../helpers/dvm.js';

const d = await dvm();
const code = sampleContract('asset');
const SCID = 'cd'.repeat(32);
const A = account(d.core, 1);
const B = account(d.core, 2);

t.test('the contract is private: InitializePrivate is its initializer', async (t) => {
  const compiled = d.vm.compile(code);
  t.equal(compiled.isPrivate, true);
  t.equal(compiled.initializer, 'InitializePrivate');
  t.same([...compiled.functions.keys()].sort(), ['InitializePrivate', 'IssueAsset']);
});

t.test('InitializePrivate does nothing and returns 0', async (t) => {
  for (const signer of [A.address, undefined]) {
    const s = new ContractSession(d, code, SCID);
    const r = s.call('InitializePrivate', { signer });
    t.equal(r.ok, true);
    t.equal(r.committed, true);
    t.equal(r.result, '0');
    t.same(r.writes, []);
    t.same(r.transfers, []);
    t.equal(r.gas.compute, 5000, 'one line: 10 RETURN 0');
  }
});

t.test('IssueAsset pays the signer as many units as coin deposited', async (t) => {
  const s = new ContractSession(d, code, SCID);
  s.call('InitializePrivate', { signer: A.address });
  const r = s.call('IssueAsset', { signer: B.address, coinvalue: 70 });
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.same(r.transfers, [{ asset: SCID, address: B.address, amount: 70 }]);
  // 10 IF SIGNER() == ""                                  5000 + 5000 + 800                     = 10800
  // 20 SEND_ASSET_TO_ADDRESS(SIGNER(), COINVALUE(), SCID()) 5000 + 90000 + 5000 + 10000 + 2000  = 112000
  // 30 RETURN 0                                                                                 =  5000
  t.equal(r.gas.compute, 10800 + 112000 + 5000);
  t.equal(s.balance(), 70n, 'the coin stays in the contract');

  const again = s.call('IssueAsset', { signer: A.address, coinvalue: 1 });
  t.same(again.transfers, [{ asset: SCID, address: A.address, amount: 1 }]);
  t.equal(s.balance(), 71n);

  const zero = s.call('IssueAsset', { signer: A.address });
  t.equal(zero.committed, true, 'no coin: nothing issued, still 0');
  t.same(zero.transfers, []);
});

t.test('IssueAsset from an anonymous sender returns 1 and takes nothing', async (t) => {
  const s = new ContractSession(d, code, SCID);
  const r = s.call('IssueAsset', { coinvalue: 70 });
  t.equal(r.ok, true);
  t.equal(r.committed, false);
  t.equal(r.result, '1');
  t.same(r.transfers, []);
  // 10 IF SIGNER() == "" THEN GOTO 100: 10800; 100 RETURN 1: 5000
  t.equal(r.gas.compute, 10800 + 5000);
  t.equal(s.balance(), 0n);
});
