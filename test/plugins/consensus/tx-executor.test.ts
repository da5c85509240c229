/**
 * Transactions executed in blocks, end to end on a real chain: registrations, transfers with rings of 2 and 16
 * (every ring member's balance changes, only sender and receiver decrypt to new amounts), double spends, expiry,
 * and blocks carrying invalid transactions rejected whole; a template's execution replayed for the block mined from it.
 */
import t from 'tap';
import { createLogger } from '../../../host/logger.js';
import type { Block } from '../../../protocol/block.js';
import { toHex } from '../../../protocol/bytes.js';
import { NETWORKS } from '../../../protocol/network.js';
import { decodeTransaction } from '../../../protocol/transaction.js';
import { TransactionErrorCode } from '../../../protocol/transaction-errors.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { balanceMath } from '../../../plugins/consensus/balance-math.js';
import type { BlockTransaction, ExecutionView } from '../../../plugins/consensus/chain.js';
import { transactionExecutor } from '../../../plugins/consensus/tx-executor.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { forEachCore } from '../../helpers/core-impls.js';
import {
  balanceOf,
  buildTestTransfer,
  premineAccount,
  premineBalance,
  registeredAccounts,
  registrationBytes,
  newAccount,
} from '../../helpers/transfers.js';

t.test('registrations go through the pool into a block', async (t) => {
  const chain = await openTestChain();
  const [alice, bob] = [newAccount(chain), newAccount(chain)];
  const id = chain.pool.add(registrationBytes(chain, alice!));
  chain.pool.add(registrationBytes(chain, bob!));
  t.equal(chain.pool.size, 2);
  t.throws(() => chain.pool.add(registrationBytes(chain, alice!)), /already pending/);
  t.notOk(chain.chain.isRegistered(alice!.key));
  await mineBlock(chain);
  t.ok(chain.chain.isRegistered(alice!.key));
  t.ok(chain.chain.isRegistered(bob!.key));
  t.equal(chain.pool.size, 0, 'mined transactions leave the pool');
  t.equal(toHex(chain.chain.includingBlock(id)!), toHex(chain.chain.top.id));
  t.equal(balanceOf(chain, alice!), 0n, 'a new account holds an encryption of zero');
  t.throws(() => chain.pool.add(registrationBytes(chain, alice!)), /already registered/);
});

t.test('a ring-2 transfer moves the amount, the fee goes to the miner', async (t) => {
  const chain = await openTestChain();
  const [alice] = await registeredAccounts(chain, 1);
  const premine = premineAccount(chain);
  const built = buildTestTransfer(chain, premine, alice!.key, 50_000n, { fee: 300n });
  t.equal(toHex(chain.pool.add(built.bytes)), toHex(built.txid));
  t.throws(() => chain.pool.add(built.bytes), /already in the pool/);
  await mineBlock(chain);
  t.equal(chain.pool.size, 0);
  t.equal(balanceOf(chain, alice!), 50_000n);
  t.equal(
    balanceOf(chain, premine, NATIVE_SCID, [premineBalance(chain, 50_000n + 300n, 300n)]),
    premineBalance(chain, 50_000n + 300n, 300n),
  );
  t.throws(() => chain.pool.add(built.bytes), /already in a block/);
});

t.test('a ring-16 transfer changes every member balance; only sender and receiver see new amounts', async (t) => {
  const chain = await openTestChain();
  const accounts = await registeredAccounts(chain, 15);
  const [alice, ...others] = accounts;
  const premine = premineAccount(chain);
  const before = new Map(accounts.map((a) => [toHex(a.key), chain.chain.stateAt().getBalance(NATIVE_SCID, a.key)!]));
  const built = buildTestTransfer(chain, premine, alice!.key, 1234n, {
    ringSize: 16,
    senderIndex: 5,
    receiverIndex: 10,
    decoys: others.map((a) => a.key),
  });
  chain.pool.add(built.bytes);
  await mineBlock(chain);
  const height = chain.chain.top.height;
  const ring = built.tx.payloads[0]!.statement.ring;
  ring.forEach((key, i) => {
    const after = chain.chain.stateAt().getBalance(NATIVE_SCID, key)!;
    const old = before.get(toHex(key));
    if (old) t.not(toHex(after.L), toHex(old.L), `member ${i}: L changed`);
    if (old) t.not(toHex(after.R), toHex(old.R), `member ${i}: R changed`);
    t.equal(
      after.nonceHeight,
      i % 2 === 1 ? height : 0n,
      `member ${i}: nonce height moves only for the sender's parity`,
    );
  });
  t.equal(balanceOf(chain, alice!), 1234n);
  for (const other of others) t.equal(balanceOf(chain, other), 0n, 'a decoy still decrypts to zero');
  t.equal(balanceOf(chain, premine, NATIVE_SCID, [premineBalance(chain, 1234n)]), premineBalance(chain, 1234n));
});

t.test(
  'transfers verified in a batch apply the verified sums to members unchanged since the reference, and add to the others',
  async (t) => {
    const chain = await openTestChain();
    const [alice, bob, carol, dave] = await registeredAccounts(chain, 4);
    const premine = premineAccount(chain);
    chain.pool.add(buildTestTransfer(chain, premine, alice!.key, 1000n).bytes);
    await mineBlock(chain);
    // Both against the same state; bob, carol and dave are in both rings, so the second finds them changed.
    const toBob = buildTestTransfer(chain, premine, bob!.key, 300n, {
      ringSize: 4,
      decoys: [carol!.key, dave!.key],
      senderBalance: premineBalance(chain, 1000n),
    });
    const toCarol = buildTestTransfer(chain, alice!, carol!.key, 200n, { ringSize: 4, decoys: [bob!.key, dave!.key] });
    await Promise.all([chain.pool.addBatched(toBob.bytes), chain.pool.addBatched(toCarol.bytes)]);
    await mineBlock(chain);
    t.same(chain.chain.block(chain.chain.top.id)!.txHashes, [toBob.txid, toCarol.txid], 'both in one block');
    t.equal(balanceOf(chain, bob!), 300n);
    t.equal(balanceOf(chain, carol!), 200n);
    t.equal(balanceOf(chain, alice!), 800n);
    t.equal(balanceOf(chain, dave!), 0n);
    t.equal(balanceOf(chain, premine, NATIVE_SCID, [premineBalance(chain, 1300n)]), premineBalance(chain, 1300n));
  },
);

t.test('double spends: the same nonce twice in the pool, and two spends of one balance in one block', async (t) => {
  const chain = await openTestChain();
  const [alice, bob] = await registeredAccounts(chain, 2);
  const premine = premineAccount(chain);
  const first = buildTestTransfer(chain, premine, alice!.key, 100n);
  const again = buildTestTransfer(chain, premine, bob!.key, 200n);
  chain.pool.add(first.bytes);
  t.throws(
    () => chain.pool.add(again.bytes),
    { code: TransactionErrorCode.NonceReused, message: /same proof nonce/ },
    'a second spend against the same state is refused',
  );

  // Two spends built on different blocks: both are admitted, the block takes the first, the second is dropped.
  const chain2 = await openTestChain();
  const [carol, dave] = await registeredAccounts(chain2, 2);
  const premine2 = premineAccount(chain2);
  const older = buildTestTransfer(chain2, premine2, carol!.key, 100n);
  await mineBlock(chain2);
  const newer = buildTestTransfer(chain2, premine2, dave!.key, 200n, { senderBalance: premineBalance(chain2) });
  chain2.pool.add(older.bytes);
  chain2.pool.add(newer.bytes);
  t.equal(chain2.pool.size, 2);
  await mineBlock(chain2);
  t.equal(chain2.pool.size, 0, 'the loser left the pool');
  t.equal(balanceOf(chain2, carol!), 100n, 'the first wins');
  t.equal(balanceOf(chain2, dave!), 0n, 'the second is not half-applied');
  t.equal(toHex(chain2.chain.includingBlock(older.txid)!), toHex(chain2.chain.top.id));
  t.equal(chain2.chain.includingBlock(newer.txid), undefined);
  t.throws(() => chain2.pool.add(newer.bytes), /may have sent since the reference block/);
});

t.test('a transaction expires after its validity window and is refused with a reason', async (t) => {
  const chain = await openTestChain();
  const [alice] = await registeredAccounts(chain, 1);
  const built = buildTestTransfer(chain, premineAccount(chain), alice!.key, 100n);
  for (let i = 0; i < 11; i++) await mineBlock(chain);
  t.throws(() => chain.pool.add(built.bytes), /too old/);
});

t.test('malformed and invalid transactions are refused without side effects', async (t) => {
  const chain = await openTestChain();
  const [alice, carol] = await registeredAccounts(chain, 2);
  const built = buildTestTransfer(chain, premineAccount(chain), alice!.key, 100n);
  const tampered = Uint8Array.from(built.bytes);
  tampered[tampered.length - 40]! ^= 1;
  t.throws(() => chain.pool.add(tampered), /proof is invalid/);
  t.throws(() => chain.pool.add(built.bytes.subarray(0, 100)), /malformed transaction/);
  t.throws(() => chain.pool.add(Uint8Array.of(...built.bytes, 0)), /malformed transaction/);
  const stranger = newAccount(chain);
  // The builder refuses unregistered members, so it is shown one as if registered.
  const G = chain.core.g1Compress(chain.core.generators('UMBRA').G);
  const pretend = (asset: Uint8Array, key: Uint8Array) =>
    chain.chain.stateAt().getBalance(asset, key) ??
    (toHex(key) === toHex(stranger.key) ? { nonceHeight: 0n, L: key, R: G } : undefined);
  const unregistered = buildTestTransfer(chain, premineAccount(chain), alice!.key, 1n, {
    decoys: [stranger.key, carol!.key],
    ringSize: 4,
    balanceAt: pretend,
  });
  t.throws(() => chain.pool.add(unregistered.bytes), /not registered/);
  t.equal(chain.pool.size, 0);

  // A block listing a transaction whose proof does not verify is rejected as a whole.
  chain.chain.addTransactionSource((id) => (toHex(id) === toHex(built.txid) ? tampered : undefined));
  const job = chain.mining.template(chain.premine);
  t.equal(job.final, false);
  const rootBefore = toHex(chain.chain.top.stateRoot);
  t.throws(
    () =>
      chain.chain.computeStateRoot({
        ...chain.chain.block(chain.chain.top.id)!,
        height: chain.chain.top.height + 1n,
        tips: [chain.chain.top.id],
        txHashes: [built.txid],
      }),
    /proof is invalid/,
  );
  t.equal(toHex(chain.chain.top.stateRoot), rootBefore, 'nothing changed');
});

t.test('a reorganisation brings the abandoned blocks’ transactions back into the pool', async (t) => {
  const a = await openTestChain();
  const b = await openTestChain();
  const alice = newAccount(a);
  const id = a.pool.add(registrationBytes(a, alice));
  await mineBlock(a);
  t.ok(a.chain.isRegistered(alice.key));
  for (let i = 0; i < 3; i++) await mineBlock(b);
  a.clock.now = b.clock.now;
  for (let h = 1n; h <= b.chain.top.height; h++)
    await a.chain.addBlock(b.chain.blocks.getBlockBytes(b.chain.metaAtTopo(h)!.id)!);
  t.same(a.chain.top.id, b.chain.top.id, 'a follows the heavier branch');
  t.notOk(a.chain.isRegistered(alice.key), 'the registration is undone with its block');
  t.same(a.pool.pending().map(toHex), [toHex(id)], 'and waits in the pool again');
  await mineBlock(a);
  t.ok(a.chain.isRegistered(alice.key));
});

t.test(
  'a block executed again on the same parent replays its writes only for the same transaction bytes',
  async (t) => {
    await forEachCore(t, async (t, core) => {
      const chain = await openTestChain({ core });
      const [alice, bob] = await registeredAccounts(chain, 2);
      const built = buildTestTransfer(chain, alice!, bob!.key, 0n, { senderBalance: 0n });
      const forged = Uint8Array.from(built.bytes);
      forged[forged.length - 1]! ^= 1; // the proof's last scalar: same txid, the proof fails
      const executor = transactionExecutor({
        core,
        network: chain.network,
        math: balanceMath(core, NETWORKS[chain.network].generatorDomain),
        contractVm: undefined,
        logger: createLogger('error'),
      });
      const top = chain.chain.top;
      const block = { height: top.height + 1n, tips: [top.id] } as Block;
      const view: ExecutionView = {
        ancestor: (height) => chain.chain.metaAtTopo(height),
        stateAt: (meta) => chain.accounts.read(meta.stateVersion),
      };
      const item = (bytes: Uint8Array): BlockTransaction => ({ id: built.txid, bytes, tx: decodeTransaction(bytes) });
      const execute = (bytes: Uint8Array) => {
        const state = chain.accounts.write(top.stateVersion);
        executor.executeBlock(block, state, [item(bytes)], view);
        return state.getBalance(NATIVE_SCID, bob!.key);
      };
      const first = execute(built.bytes);
      t.same(execute(built.bytes), first, 'the same block again: the same writes');
      t.throws(
        () => execute(forged),
        { code: 'block.bad-transaction', message: /proof is invalid/ },
        'the same txid with other bytes is checked afresh',
      );
    });
  },
);
