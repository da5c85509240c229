/**
 * examples/contracts/nameservice.bas at its reserved SCID 00…01: Register (6..63 bytes first come first served,
 * shorter names only for the privileged key stored under the Uint64 key 0, 64 bytes and more never, anonymous
 * callers never, an existing name never changes) and TransferOwnership. Compute gas is derived by hand: 5000 per
 * non-empty line, 800 per binary operator, each built-in its table cost.
 */
import t from 'tap';
import { H, rawKeyWrite, S } from '../../../helpers/contract-args.js';
import { account, ContractSession, dvm, sampleContract } from '../../../helpers/dvm.js';

const d = await dvm();
const code = sampleContract('nameservice');
const NAME_SERVICE = '0'.repeat(63) + '1';
const A = account(d.core, 1);
const B = account(d.core, 2);
const P = account(d.core, 9); // the privileged key

/** The name service as at genesis: the privileged raw key under the Uint64 key 0 (or none). */
function genesis(privileged = true): ContractSession {
  const s = new ContractSession(d, code, NAME_SERVICE);
  if (privileged) s.store.set('U:0', { ktype: 'U', key: 0, vtype: 'S', value: P.rawHex, encoding: 'hex' });
  return s;
}
const register = (s: ContractSession, signer: string | undefined, name: string) =>
  s.call('Register', { signer, args: [S('name', name)] });
const transfer = (s: ContractSession, signer: string | undefined, name: string, newowner: string) =>
  s.call('TransferOwnership', { signer, args: [S('name', name), S('newowner', newowner)] });

// Register's lines, each with its cost:
//   10 IF SIGNER() == "" THEN GOTO 100        5000 + SIGNER 5000 + 800           = 10800
//   20 IF EXISTS(name) THEN GOTO 100          5000 + EXISTS 5000                 = 10000
//   30 IF STRLEN(name) >= 64 THEN GOTO 100    5000 + STRLEN 20000 + 800          = 25800
//   40 IF STRLEN(name) >= 6 THEN GOTO 80      5000 + STRLEN 20000 + 800          = 25800
//   50 IF EXISTS(0) == 0 THEN GOTO 100        5000 + EXISTS 5000 + 800           = 10800
//   60 IF LOAD(0) != SIGNER() THEN GOTO 100   5000 + LOAD 5000 + 800 + SIGNER 5000 = 15800
//   80 STORE(name, SIGNER())                  5000 + STORE 10000 + SIGNER 5000   = 20000
//   100 RETURN 0                                                                  =  5000

t.test('Initialize returns 0 and changes nothing', async (t) => {
  const r = genesis().call('Initialize', {});
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, []);
  t.equal(r.gas.compute, 5000);
});

t.test('Register: a name of 6 to 63 bytes goes to the signer', async (t) => {
  const s = genesis();
  const r = register(s, A.address, 'alice1');
  t.equal(r.ok, true);
  t.equal(r.committed, true);
  t.equal(r.result, '0');
  t.same(r.writes, [rawKeyWrite('alice1', A.rawHex)], 'stored as the raw key');
  t.same(r.transfers, []);
  t.equal(r.gas.compute, 10800 + 10000 + 25800 + 25800 + 20000 + 5000, 'lines 10, 20, 30, 40, 80, 100');
  t.same(register(s, B.address, 'x'.repeat(63)).writes, [rawKeyWrite('x'.repeat(63), B.rawHex)], '63 bytes');
  t.same(
    register(s, B.address, 'ééé').writes,
    [rawKeyWrite('ééé', B.rawHex)],
    'bytes, not characters: 3 characters, 6 bytes',
  );
  t.same(register(s, B.address, 'éé').writes, [], '4 bytes is short');
  const hashName = s.call('Register', { signer: A.address, args: [H('name', 'ab'.repeat(32))] });
  t.same(
    hashName.writes,
    [{ ktype: 'S', key: 'ab'.repeat(32), kencoding: 'hex', vtype: 'S', value: A.rawHex, encoding: 'hex' }],
    'an H name is its 32 raw bytes',
  );
});

t.test('Register: an existing name does not change', async (t) => {
  const s = genesis();
  register(s, A.address, 'alice1');
  for (const signer of [B.address, A.address, P.address]) {
    const r = register(s, signer, 'alice1');
    t.equal(r.committed, true, 'returns 0');
    t.equal(r.result, '0');
    t.same(r.writes, [], 'nothing written');
    t.equal(r.gas.compute, 10800 + 10000 + 5000, 'lines 10, 20, 100');
  }
  t.equal(s.get('alice1'), A.rawHex);
});

t.test('Register: 64 bytes or more never, not even for the privileged key', async (t) => {
  const s = genesis();
  for (const signer of [A.address, P.address]) {
    const r = register(s, signer, 'y'.repeat(64));
    t.equal(r.committed, true);
    t.same(r.writes, []);
    t.equal(r.gas.compute, 10800 + 10000 + 25800 + 5000, 'lines 10, 20, 30, 100');
  }
  t.same(register(s, A.address, 'z'.repeat(1000)).writes, []);
});

t.test('Register: a name shorter than 6 bytes only for the privileged key', async (t) => {
  const s = genesis();
  const other = register(s, A.address, 'bob');
  t.equal(other.committed, true, 'returns 0');
  t.same(other.writes, []);
  t.equal(other.gas.compute, 10800 + 10000 + 25800 + 25800 + 10800 + 15800 + 5000, 'lines 10–60, 100');
  t.same(register(s, A.address, 'abcde').writes, [], '5 bytes is short');

  const privileged = register(s, P.address, 'bob');
  t.equal(privileged.committed, true);
  t.same(privileged.writes, [rawKeyWrite('bob', P.rawHex)]);
  t.equal(privileged.gas.compute, 10800 + 10000 + 25800 + 25800 + 10800 + 15800 + 20000 + 5000, 'lines 10–60, 80, 100');
  t.equal(s.get('bob'), P.rawHex);

  const nobody = genesis(false);
  const r = register(nobody, P.address, 'bob');
  t.equal(r.committed, true, 'without a privileged key stored, short names go to nobody');
  t.same(r.writes, []);
  t.equal(r.gas.compute, 10800 + 10000 + 25800 + 25800 + 10800 + 5000, 'lines 10–50, 100');
});

t.test('Register: "C" is an ordinary short name (the code is not a variable)', async (t) => {
  const s = genesis();
  const r = register(s, P.address, 'C');
  t.equal(r.committed, true);
  t.same(r.writes, [{ ktype: 'S', key: 'C', vtype: 'S', value: P.rawHex, encoding: 'hex' }]);
});

t.test('Register: anonymous callers register nothing', async (t) => {
  const s = genesis();
  for (const name of ['anonymous', 'bob']) {
    const r = register(s, undefined, name);
    t.equal(r.committed, true);
    t.equal(r.result, '0');
    t.same(r.writes, []);
    t.equal(r.gas.compute, 10800 + 5000, 'lines 10, 100');
  }
});

t.test("TransferOwnership: by the owner stores the new owner's raw key; by others returns 1", async (t) => {
  const s = genesis();
  register(s, A.address, 'alice1');
  const byOther = transfer(s, B.address, 'alice1', B.address);
  t.equal(byOther.committed, false);
  t.equal(byOther.result, '1');
  t.same(byOther.writes, []);
  // 10 IF SIGNER() == "" 10800; 20 IF EXISTS(name) == 0 5000 + 5000 + 800; 30 IF LOAD(name) != SIGNER() 5000 + 5000 + 800 + 5000; 100 RETURN 1 5000
  t.equal(byOther.gas.compute, 10800 + 10800 + 15800 + 5000);
  t.equal(transfer(s, P.address, 'alice1', P.address).result, '1', 'the privileged key has no power over names');
  t.equal(transfer(s, undefined, 'alice1', B.address).result, '1', 'anonymous: 1');
  t.equal(transfer(s, A.address, 'nosuchname', B.address).result, '1', 'an unregistered name: 1');
  t.equal(transfer(s, A.address, 'alice1', 'junk').result, '1', 'an invalid new owner: 1');
  t.equal(s.get('alice1'), A.rawHex);

  const byOwner = transfer(s, A.address, 'alice1', B.address);
  t.equal(byOwner.committed, true);
  t.equal(byOwner.result, '0');
  t.same(byOwner.writes, [rawKeyWrite('alice1', B.rawHex)]);
  t.same(byOwner.transfers, []);
  // 10: 10800; 20: 10800; 30: 15800; 40 IF ADDRESS_RAW(newowner) == "" 5000 + 60000 + 800;
  // 50 STORE(name, ADDRESS_RAW(newowner)) 5000 + 10000 + 60000; 60 RETURN 0 5000
  t.equal(byOwner.gas.compute, 10800 + 10800 + 15800 + 65800 + 75000 + 5000);
  t.equal(transfer(s, A.address, 'alice1', A.address).result, '1', 'the old owner has lost it');
  t.same(
    transfer(s, B.address, 'alice1', A.address).writes,
    [rawKeyWrite('alice1', A.rawHex)],
    'the new owner can pass it on',
  );
});
