/** Templates and submissions: the job protocol, and every way a submission is refused. */
import t from 'tap';
import { meetsTarget } from '../../../core-native/ts/pow-target.js';
import { toHex } from '../../../protocol/bytes.js';
import { MiniblockErrorCode } from '../../../host/services/miniblocks.js';
import { encodeTransaction } from '../../../protocol/transaction.js';
import { openTestChain, solve } from '../../helpers/chain.js';
import { buildTestTransfer, registeredAccounts } from '../../helpers/transfers.js';

t.test('on testnet: ordinary jobs at D, the final job at 9·D, bad proof of work refused', async (t) => {
  const test = await openTestChain({ network: 'testnet' });
  const { mining, chain } = test;
  test.clock.now += 18_000n;
  const job = mining.template(test.premine);
  t.equal(job.final, false);
  t.equal(job.difficulty, 50n, 'testnet bootstrap difficulty');
  t.equal(job.height, 1n);
  // A nonce whose hash misses the target is refused, and nothing is pooled.
  const bad = Uint8Array.from(job.blob);
  for (let nonce = 0; meetsTarget(test.core.powHash(bad), job.difficulty); nonce++)
    new DataView(bad.buffer).setUint32(44, nonce);
  await t.rejects(mining.submit(job.id, bad), { code: MiniblockErrorCode.BadPow, message: /invalid proof of work/ });
  t.equal(mining.pooledCount(), 0);
  for (let i = 0; i < 9; i++) {
    const next = mining.template(test.premine);
    const result = await mining.submit(next.id, solve(test, next.blob, next.difficulty));
    t.ok(result.mini, `ordinary miniblock ${i} pooled`);
  }
  const final = mining.template(test.premine);
  t.ok(final.final);
  t.equal(final.difficulty, 450n, 'the final miniblock needs 9× the difficulty');
  const result = await mining.submit(final.id, solve(test, final.blob, final.difficulty));
  t.ok(result.block_found);
  t.equal(result.blid, toHex(chain.top.id));
  t.equal(chain.top.height, 1n);
});

t.test('submissions that do not belong are refused with their reason', async (t) => {
  const test = await openTestChain();
  const { mining } = test;
  test.clock.now += 18_000n;
  const job = mining.template(test.premine);
  await t.rejects(mining.submit('12.3.0', job.blob), { message: /job 12\.3\.0 not found/ });
  await t.rejects(mining.submit(job.id, job.blob.slice(1)), {
    message: /could not be decoded: a miniblock is 48 bytes, this one 47/,
  });
  const otherHeight = Uint8Array.from(job.blob);
  otherHeight[7]! ^= 1;
  await t.rejects(mining.submit(job.id, otherHeight), { message: /does not belong to this job/ });
  await mining.submit(job.id, job.blob);
  await t.rejects(mining.submit(job.id, job.blob), { message: /duplicate miniblock/ });
  t.throws(() => mining.template(new Uint8Array(33).fill(2)), { message: 'miner address is not registered' });
  // Finish the block; the old job is then stale.
  for (;;) {
    const next = mining.template(test.premine);
    if ((await mining.submit(next.id, next.blob)).block_found) break;
  }
  const stale = Uint8Array.from(job.blob);
  stale[40]! ^= 1;
  await t.rejects(mining.submit(job.id, stale), { message: /stale job/ });
});

t.test('on testnet the proof of work is checked before anything else, and every answer is counted', async (t) => {
  const test = await openTestChain({ network: 'testnet' });
  const { mining } = test;
  test.clock.now += 18_000n;
  const job = mining.template(test.premine);
  // Another height and a hash that misses the target: the proof of work is what is refused.
  const wrong = Uint8Array.from(job.blob);
  wrong[7]! ^= 1;
  for (let nonce = 0; meetsTarget(test.core.powHash(wrong), job.difficulty); nonce++)
    new DataView(wrong.buffer).setUint32(44, nonce);
  await t.rejects(mining.submit(job.id, wrong), { code: MiniblockErrorCode.BadPow });
  t.equal(mining.miniblocksRejected, 1);
  await mining.submit(job.id, solve(test, job.blob, job.difficulty));
  t.equal(mining.miniblocksAccepted, 1);
  t.equal(mining.miniblocksRejected, 1);
});

t.test('a template asked with its block carries the block being completed, ordinary jobs too', async (t) => {
  const test = await openTestChain();
  const { mining } = test;
  test.clock.now += 18_000n;
  const first = mining.template(test.premine, true);
  t.equal(first.final, false);
  t.equal(first.block?.height, 1n, 'the block at the next height');
  t.same(first.block?.miniblocks, [], 'nothing pooled yet');
  t.equal(mining.template(test.premine).block, undefined, 'not asked: no block built');
  await mining.submit(first.id, first.blob);
  const second = mining.template(test.premine, true);
  t.equal(second.block?.miniblocks.length, 1, 'with the miniblock pooled since');
  for (let job = second; !job.final; job = mining.template(test.premine)) await mining.submit(job.id, job.blob);
  const final = mining.template(test.premine);
  t.equal(final.block?.miniblocks.length, 9, 'a final job always carries its block');
});

t.test(
  'the final block is built ahead a slice at a time: timers run meanwhile, and the final job hands that block out',
  async (t) => {
    // Slices of 0 ms: the build lets the event loop turn after every step.
    const test = await openTestChain({ templateSliceMs: 0 });
    const { mining, chain, pool } = test;
    const accounts = await registeredAccounts(test, 24);
    // Each transfer's sender-parity members (sender, one decoy) are its own, so that the block can take them all.
    const senders = accounts.slice(0, 8);
    senders.forEach((sender, i) => {
      const [decoy, receiver, other] = [accounts[8 + i]!, accounts[16 + i]!, accounts[16 + ((i + 1) % 8)]!];
      const built = buildTestTransfer(test, sender, receiver.key, 0n, {
        ringSize: 4,
        senderBalance: 0n,
        decoys: [decoy.key, other.key],
      });
      pool.add(encodeTransaction(built.tx));
    });
    test.clock.now += 18_000n;
    for (let i = 0; i < 9; i++) {
      const job = mining.template(test.premine);
      await mining.submit(job.id, job.blob);
    }
    // Work queued for the event loop's next turn runs before the build ends only if the build gave the loop back.
    let turned = false;
    setImmediate(() => (turned = true));
    await mining.prepareFinal(test.premine);
    t.ok(turned, 'the event loop turned during the build');
    const final = mining.template(test.premine);
    t.ok(final.final);
    t.equal(final.block!.txHashes.length, senders.length, 'every pending transfer is in the block');
    const result = await mining.submit(final.id, final.blob);
    t.ok(result.block_found);
    t.equal(chain.top.txCount, senders.length, 'the block mined from it is the chain top');
    t.equal(pool.size, 0);
  },
);
