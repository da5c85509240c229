/**
 * examples/contracts/exchange.bas played through a ContractSession: Deposit, Interchange (half of the incoming
 * asset deposited with the call, paid in the outgoing asset; asset ids as H arguments), Withdraw of any asset by
 * the owner, the ownership hand-over and UpdateCode. Compute gas is derived by hand: 5000 per non-empty line, 800 per
 * binary operator, each built-in its table cost.
 */
import t from 'tap';
import { H, OWNER_CHECK_GAS, payment, rawKeyWrite, S, U } from '../../../helpers/contract-args.js';
import { account, COIN_HEX, ContractSession, dvm, sampleContract, type CallOptions } from '../../../helpers/dvm.js';

const d = await dvm();
const code = sampleContract('exchange');
const X = '11'.repeat(32);
const Y = '22'.repeat(32);
const A = account(d.core, 1);
const B = account(d.core, 2);
const C = account(d.core, 3);

/** An exchange installed by A holding 1000 of Y. */
function installed(): ContractSession {
  const s = new ContractSession(d, code);
  if (!s.call('Initialize', { signer: A.address }).committed) throw new Error('install failed');
  if (!s.call('Deposit', { signer: A.address, assets: { [Y]: 1000 } }).committed) throw new Error('deposit failed');
  return s;
}

const interchange = (
  s: ContractSession,
  signer: string | undefined,
  incoming: number,
  options: Partial<CallOptions> = {},
) =>
  s.call('Interchange', { signer, assets: { [X]: incoming }, args: [H('incoming', X), H('outgoing', Y)], ...options });

t.test('Initialize stores the owner, once', async (t) => {
  const s = new ContractSession(d, code);
  const r = s.call('Initialize', { signer: A.address });
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, [rawKeyWrite('owner', A.rawHex)]);
  t.same(r.transfers, []);
  // 10 IF EXISTS("owner") 5000 + 5000; 20 STORE("owner", SIGNER()) 5000 + 10000 + 5000; 30 RETURN 5000
  t.equal(r.gas.compute, 10000 + 20000 + 5000);
  const again = s.call('Initialize', { signer: B.address });
  t.equal(again.committed, false);
  t.equal(again.result, '1');
  t.equal(s.get('owner'), A.rawHex);
});

t.test('Deposit accepts any deposit and returns 0', async (t) => {
  const s = new ContractSession(d, code);
  s.call('Initialize', { signer: A.address });
  const r = s.call('Deposit', { signer: B.address, coinvalue: 5, assets: { [X]: 7, [Y]: 9 } });
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.same(r.transfers, []);
  t.equal(r.gas.compute, 5000, 'one line: 10 RETURN 0');
  t.equal(s.balance(), 5n);
  t.equal(s.balance(X), 7n);
  t.equal(s.balance(Y), 9n);
  t.equal(s.call('Deposit', {}).committed, true, 'anonymous deposits are welcome too');
});

t.test('Interchange pays half the incoming asset in the outgoing asset', async (t) => {
  const s = installed();
  const r = interchange(s, B.address, 301);
  t.equal(r.ok, true);
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.same(r.transfers, [payment(Y, B.address, 150)], '301 / 2 = 150 (integer division)');
  // 10 IF SIGNER() == ""                                                   5000 + 5000 + 800                = 10800
  // 20 SEND_ASSET_TO_ADDRESS(SIGNER(), ASSETVALUE(incoming) / 2, outgoing) 5000 + 90000 + 5000 + 10000 + 800 = 110800
  // 30 RETURN 0                                                                                              =  5000
  t.equal(r.gas.compute, 10800 + 110800 + 5000);
  t.equal(s.balance(X), 301n, 'the incoming asset stays');
  t.equal(s.balance(Y), 850n);

  t.same(interchange(s, C.address, 1000).transfers, [payment(Y, C.address, 500)]);
  t.equal(s.balance(Y), 350n);
  const one = interchange(s, C.address, 1);
  t.equal(one.committed, true, '1 / 2 = 0: nothing to pay, still 0');
  t.same(one.transfers, []);

  const coinOut = s.call('Interchange', {
    signer: B.address,
    assets: { [X]: 20 },
    args: [H('incoming', X), H('outgoing', COIN_HEX)],
  });
  t.equal(coinOut.ok, false, 'the exchange holds no coin');
  s.call('Deposit', { coinvalue: 100 });
  const coinOk = s.call('Interchange', {
    signer: B.address,
    assets: { [X]: 20 },
    args: [H('incoming', X), H('outgoing', COIN_HEX)],
  });
  t.same(coinOk.transfers, [payment(COIN_HEX, B.address, 10)], 'the zero id is the native coin');
  t.equal(s.balance(), 90n);
});

t.test("Interchange: the same call's deposit can be paid out", async (t) => {
  const s = new ContractSession(d, code);
  s.call('Initialize', { signer: A.address });
  const r = s.call('Interchange', {
    signer: B.address,
    assets: { [X]: 100 },
    args: [H('incoming', X), H('outgoing', X)],
  });
  t.equal(r.committed, true);
  t.same(r.transfers, [payment(X, B.address, 50)]);
  t.equal(s.balance(X), 50n);
});

t.test('Interchange is discarded when the exchange lacks the outgoing asset', async (t) => {
  const s = installed();
  const r = interchange(s, B.address, 2002);
  t.equal(r.ok, false);
  t.equal(r.committed, false);
  t.equal(r.error?.function, 'Interchange');
  t.equal(r.error?.line, 20);
  t.match(r.error?.message, /insufficient asset/);
  t.same(r.writes, []);
  t.same(r.transfers, []);
  t.equal(s.balance(Y), 1000n, 'nothing paid');
  t.equal(s.balance(X), 0n, 'the incoming deposit is not kept');
  const exact = interchange(s, B.address, 2001);
  t.same(exact.transfers, [payment(Y, B.address, 1000)], 'exactly the whole holding is fine');
  t.equal(s.balance(Y), 0n);
});

t.test('Interchange: asset ids are 32 raw bytes (H arguments); anonymous callers get 1', async (t) => {
  const s = installed();
  const asText = s.call('Interchange', {
    signer: B.address,
    assets: { [X]: 10 },
    args: [S('incoming', X), S('outgoing', Y)],
  });
  t.equal(asText.ok, false, 'a 64-character S argument is not an asset id');
  t.match(asText.error?.message, /32 raw bytes/);
  const missing = s.call('Interchange', { signer: B.address, assets: { [X]: 10 }, args: [H('incoming', X)] });
  t.equal(missing.ok, false, 'outgoing must be given');
  const anon = interchange(s, undefined, 10);
  t.equal(anon.committed, false);
  t.equal(anon.result, '1');
  t.same(anon.transfers, []);
  t.equal(anon.gas.compute, 10800 + 5000, '10 IF SIGNER() == "" 10800; 100 RETURN 1 5000');
});

t.test('Withdraw: the owner takes any asset; others get 1; too much panics', async (t) => {
  const s = installed();
  const other = s.call('Withdraw', { signer: B.address, args: [U('amount', 10), H('asset', Y)] });
  t.equal(other.committed, false);
  t.equal(other.result, '1');
  t.same(other.transfers, []);
  t.equal(s.call('Withdraw', { args: [U('amount', 10), H('asset', Y)] }).result, '1', 'anonymous: 1');
  const tooMuch = s.call('Withdraw', { signer: A.address, args: [U('amount', 1001), H('asset', Y)] });
  t.equal(tooMuch.ok, false);
  t.match(tooMuch.error?.message, /insufficient/);
  t.equal(s.balance(Y), 1000n);
  const ok = s.call('Withdraw', { signer: A.address, args: [U('amount', 400), H('asset', Y)] });
  t.equal(ok.committed, true);
  t.same(ok.writes, []);
  t.same(ok.transfers, [payment(Y, A.address, 400)]);
  // owner check; 20 SEND_ASSET_TO_ADDRESS(SIGNER(), amount, asset) 5000 + 90000 + 5000; 30 RETURN 5000
  t.equal(ok.gas.compute, OWNER_CHECK_GAS + 100000 + 5000);
  t.equal(s.balance(Y), 600n);
});

t.test('ownership hand-over', async (t) => {
  const s = installed();
  const transfer = (signer: string | undefined, to: string) =>
    s.call('TransferOwnership', { signer, args: [S('newowner', to)] });
  t.equal(transfer(B.address, B.address).result, '1', 'non-owner: 1');
  t.equal(transfer(A.address, 'umbt1notanaddress').result, '1', 'invalid address: 1');
  const byOwner = transfer(A.address, B.address);
  t.equal(byOwner.committed, true);
  t.same(byOwner.writes, [rawKeyWrite('tmpowner', B.rawHex)]);
  // owner check; 20 IF ADDRESS_RAW(newowner) == "" 5000 + 60000 + 800; 30 STORE("tmpowner", ADDRESS_RAW(newowner)) 5000 + 10000 + 60000; 40 RETURN 5000
  t.equal(byOwner.gas.compute, OWNER_CHECK_GAS + 65800 + 75000 + 5000);
  t.equal(s.get('owner'), A.rawHex, 'owner unchanged until the claim');
  t.equal(
    s.call('Withdraw', { signer: B.address, args: [U('amount', 1), H('asset', Y)] }).result,
    '1',
    'B is not owner yet',
  );

  const wrong = s.call('ClaimOwnership', { signer: C.address });
  t.equal(wrong.committed, false);
  t.equal(wrong.result, '1');
  const claim = s.call('ClaimOwnership', { signer: B.address });
  t.equal(claim.committed, true);
  t.same(claim.writes, [rawKeyWrite('owner', B.rawHex), { ktype: 'S', key: 'tmpowner', deleted: true }]);
  // 10 IF EXISTS("tmpowner") == 0 10800; 20 IF LOAD("tmpowner") != SIGNER() 15800; 30 STORE 20000; 40 DELETE 8000; 50 RETURN 5000
  t.equal(claim.gas.compute, 10800 + 15800 + 20000 + 8000 + 5000);
  t.same(
    s.call('Withdraw', { signer: B.address, args: [U('amount', 1), H('asset', Y)] }).transfers,
    [payment(Y, B.address, 1)],
    'B is owner now',
  );
  t.equal(s.call('Withdraw', { signer: A.address, args: [U('amount', 1), H('asset', Y)] }).result, '1', 'A is not');
});

t.test('UpdateCode: owner only; refuses code that does not compile', async (t) => {
  const s = installed();
  const newCode = 'Function Deposit() Uint64\n10 RETURN 0\nEnd Function\n';
  t.equal(s.call('UpdateCode', { signer: B.address, args: [S('code', newCode)] }).result, '1');
  const broken = s.call('UpdateCode', {
    signer: A.address,
    args: [S('code', 'Function Deposit() Uint64\n10 RETURN STRLEN()\nEnd Function\n')],
  });
  t.equal(broken.ok, false, 'a wrong built-in argument count does not compile');
  const ok = s.call('UpdateCode', { signer: A.address, args: [S('code', newCode)] });
  t.equal(ok.committed, true);
  t.equal(ok.code, newCode, 'the new code is returned beside the writes');
  t.same(ok.writes, []);
  t.equal(
    ok.gas.compute,
    OWNER_CHECK_GAS + 10000 + 5000,
    'owner check; 20 UPDATE_SC_CODE(code) 5000 + 5000; 30 RETURN 5000',
  );
});
