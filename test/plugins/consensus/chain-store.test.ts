/**
 * What the chain store keeps per block, seen through the chain: a contract transaction's call outcome belongs to the
 * block that executed it, follows a reorganisation and survives a restart on RocksDB; records round-trip exactly.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import type { RpcArgument } from '../../../protocol/rpc-arguments.js';
import type { ContractCallOutcome } from '../../../protocol/contract-outcome.js';
import { MemoryStore } from '../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../host/storage/rocksdb-store.js';
import { ChainStore } from '../../../plugins/consensus/chain-store.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { buildTestTransfer, premineAccount, premineBalance, registeredAccounts } from '../../helpers/transfers.js';
import { installArgs } from '../../../wallet/contract-args.js';

const onceCode = `Function Initialize() Uint64
10 RETURN 0
End Function

Function Once() Uint64
10 IF EXISTS("done") THEN GOTO 40
20 STORE("done", 1)
30 RETURN 0
40 RETURN 7
End Function
`;
const callOnce = (scid: Uint8Array): RpcArgument[] => [
  { name: 'SC_ACTION', datatype: 'U', value: 0n },
  { name: 'SC_ID', datatype: 'H', value: toHex(scid) },
  { name: 'entrypoint', datatype: 'S', value: 'Once' },
];

t.test('a call outcome belongs to the block that executed it: it follows a reorganisation and a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-outcome-'));
  const store = await RocksDbStore.open(dir);
  const a = await openTestChain({ store });
  const [alice, bob, carol, dave] = await registeredAccounts(a, 4);
  a.pool.add(buildTestTransfer(a, premineAccount(a), alice!.key, 1_000_000n).bytes);
  await mineBlock(a);
  const toBob = buildTestTransfer(a, premineAccount(a), bob!.key, 1_000_000n, {
    senderBalance: premineBalance(a, 1_000_000n),
  });
  a.pool.add(toBob.bytes);
  await mineBlock(a);
  const install = buildTestTransfer(a, alice!, carol!.key, 0n, {
    scArgs: installArgs(onceCode),
    fee: 2000n,
  });
  a.pool.add(install.bytes);
  await mineBlock(a);
  // b is the same chain so far; each reads transactions it has not seen from the other.
  const b = await openTestChain();
  b.clock.now = a.clock.now;
  b.chain.addTransactionSource((id) => a.chain.storedTransaction(id));
  a.chain.addTransactionSource((id) => b.chain.storedTransaction(id));
  for (let h = 1n; h <= a.chain.top.height; h++)
    await b.chain.addBlock(a.chain.blocks.getBlockBytes(a.chain.metaAtTopo(h)!.id)!);
  const fork = a.chain.top.height;

  const first = buildTestTransfer(a, alice!, carol!.key, 0n, { scArgs: callOnce(install.txid) });
  const other = buildTestTransfer(a, bob!, dave!.key, 0n, { scArgs: callOnce(install.txid) });
  a.pool.add(first.bytes);
  await mineBlock(a);
  const oldBlock = a.chain.includingBlock(first.txid)!;
  t.match(a.chain.callOutcome(oldBlock, first.txid), { status: 'committed', code: 0 }, 'first to call: committed');

  // On b, bob's call comes first, so alice's returns 7 there; b's branch is longer.
  b.pool.add(other.bytes);
  await mineBlock(b);
  b.pool.add(first.bytes);
  await mineBlock(b);
  a.clock.now = b.clock.now;
  for (let h = fork + 1n; h <= b.chain.top.height; h++)
    await a.chain.addBlock(b.chain.blocks.getBlockBytes(b.chain.metaAtTopo(h)!.id)!);
  t.same(a.chain.top.id, b.chain.top.id, 'a reorganised onto b');
  const newBlock = a.chain.includingBlock(first.txid)!;
  t.not(toHex(newBlock), toHex(oldBlock), 'alice’s call is in another block now');
  const answer = a.chain.callOutcome(newBlock, first.txid);
  t.match(answer, { status: 'returned', code: 7 }, 'and its answer is the new one');
  t.match(a.chain.callOutcome(oldBlock, first.txid), { status: 'committed' }, 'the side block keeps its own');

  await store.close();
  const reopened = await openTestChain({ store: await RocksDbStore.open(dir) });
  t.same(
    reopened.chain.callOutcome(reopened.chain.includingBlock(first.txid)!, first.txid),
    answer,
    'the outcome survives a restart',
  );
});

t.test('outcome records round-trip exactly; a damaged one is a clear error', async (t) => {
  const store = new MemoryStore();
  const blocks = new ChainStore(store);
  const block = new Uint8Array(32).fill(1);
  const outcomes: ContractCallOutcome[] = [
    { status: 'committed', code: 0, gascompute: 1 },
    { status: 'returned', code: 2 ** 60, gascompute: 5000 },
    { status: 'failed', message: 'PANIC (in Withdraw line 20) — ünïcode', line: 20, gascompute: 30800 },
  ];
  const batch = store.batch();
  outcomes.forEach((outcome, i) => blocks.putCallOutcome(batch, block, new Uint8Array(32).fill(i), outcome));
  await batch.write();
  outcomes.forEach((outcome, i) => t.same(blocks.callOutcome(block, new Uint8Array(32).fill(i)), outcome));
  t.equal(blocks.callOutcome(new Uint8Array(32).fill(2), new Uint8Array(32)), undefined, 'another block: none');
  const damaged = Uint8Array.from([...Buffer.from('co'), ...block, ...new Uint8Array(32).fill(9)]);
  await store.put(damaged, Buffer.from('{"status":'));
  t.throws(() => blocks.callOutcome(block, new Uint8Array(32).fill(9)), {
    name: 'DecodeError',
    message: /contract call outcome: the stored record is damaged/,
  });
});
