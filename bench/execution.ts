/**
 * Transaction execution: ring-16 transfers verified per second (native and fallback core, one by one on one core and
 * batched on the worker pool over both cores), and lottery
 * calls applied per second in blocks (blocks of 16 calls, each a ring-2 transaction with a deposit, validated and
 * executed by a second chain — proofs, nonce heights, the contract run and the state commit).
 */
import { readFileSync } from 'node:fs';
import { loadCore } from '../core-native/ts/index.js';
import { toHex } from '../host/protocol/bytes.js';
import type { RpcArgument } from '../host/protocol/rpc-arguments.js';
import { VerifyPool } from '../core-native/ts/proof/verify-pool.js';
import { NATIVE_SCID, transferProofItems, verifyTransfer } from '../host/protocol/transfer-checks.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import {
  balanceOf,
  buildTestTransfer,
  premineAccount,
  premineBalance,
  registeredAccounts,
} from '../test/helpers/transfers.js';
import { runBench, timeIt, timeItAsync, type BenchRow } from './harness.js';

const rows: BenchRow[] = [];
const native = await loadCore({ impl: 'native' });
const fallback = await loadCore({ impl: 'fallback' });

// Ring-16 transfers, verified against the state they reference.
const chain = await openTestChain({ core: native });
const accounts = await registeredAccounts(chain, 15);
const transfers = accounts.slice(0, 8).map((to) =>
  buildTestTransfer(chain, premineAccount(chain), to.key, 1000n, {
    ringSize: 16,
    receiverIndex: 1,
    decoys: accounts.filter((a) => a !== to).map((a) => a.key),
  }),
);
const state = chain.chain.stateAt();
for (const core of [native, fallback]) {
  const gens = core.generators('UMBRA');
  let next = 0;
  const us = timeIt(
    () => {
      const built = transfers[next++ % transfers.length]!;
      verifyTransfer(core, gens, built.tx, built.txid, (asset, key) => state.getBalance(asset, key));
    },
    { minMs: core === native ? 2000 : 4000 },
  );
  rows.push({
    case: 'tx-verify-ring-16',
    impl: `${core.impl}-one-by-one`,
    unit: 'tx/s',
    value: Math.round((1e6 / us) * 10) / 10,
  });
  // Batched on both cores, as block validation does it: every transfer's proofs to the worker pool at once.
  const pool = new VerifyPool({ impl: core.impl });
  const items = transfers.flatMap((built) =>
    transferProofItems(core, gens, built.tx, built.txid, (asset, key) => state.getBalance(asset, key)),
  );
  const batchUs = await timeItAsync(() => pool.verify(gens.domain, items), { minMs: core === native ? 2000 : 4000 });
  rows.push({
    case: 'tx-verify-ring-16',
    impl: `${core.impl}-batched-2-cores`,
    unit: 'tx/s',
    value: Math.round((1e6 / (batchUs / items.length)) * 10) / 10,
  });
  await pool.close();
}

// Lottery calls in blocks: 16 funded players, each plays once per block (a sender spends once per block).
const PLAYERS = 16;
const BLOCKS = 4;
const source = await openTestChain({ core: native });
const players = await registeredAccounts(source, PLAYERS);
let spent = 0n;
for (const player of players) {
  source.pool.add(
    buildTestTransfer(source, premineAccount(source), player.key, 100_000n, {
      senderBalance: premineBalance(source, spent),
    }).bytes,
  );
  spent += 100_000n;
  await mineBlock(source);
}
const install: RpcArgument[] = [
  { name: 'SC_ACTION', datatype: 'U', value: 1n },
  { name: 'SC_CODE', datatype: 'S', value: readFileSync('examples/contracts/lottery.bas', 'utf8') },
];
const lottery = buildTestTransfer(source, players[0]!, players[1]!.key, 0n, {
  scArgs: install,
  fee: 8000n,
  senderBalance: 100_000n,
});
source.pool.add(lottery.bytes);
await mineBlock(source);
const firstCallBlock = source.chain.top.height + 1n;
const play: RpcArgument[] = [
  { name: 'SC_ACTION', datatype: 'U', value: 0n },
  { name: 'SC_ID', datatype: 'H', value: toHex(lottery.txid) },
  { name: 'entrypoint', datatype: 'S', value: 'Lottery' },
];
const balances = new Map(players.map((p, i) => [p, i === 0 ? 92_000n : 100_000n]));
for (let b = 0; b < BLOCKS; b++) {
  players.forEach((player, i) => {
    const other = players[(i + 1) % PLAYERS]!;
    source.pool.add(
      buildTestTransfer(source, player, other.key, 0n, {
        scArgs: play,
        burn: 100n,
        senderBalance: balances.get(player)!,
      }).bytes,
    );
  });
  await mineBlock(source);
  // Winners are random: read every balance back for the next round.
  for (const player of players) balances.set(player, balanceOf(source, player, NATIVE_SCID)!);
}
const target = await openTestChain({ core: native });
target.clock.now = source.clock.now;
target.chain.addTransactionSource((id) => source.chain.storedTransaction(id));
const blobs: Uint8Array[] = [];
for (let h = 1n; h <= source.chain.top.height; h++)
  blobs.push(source.chain.blocks.getBlockBytes(source.chain.metaAtTopo(h)!.id)!);
for (const blob of blobs.slice(0, Number(firstCallBlock) - 1)) await target.chain.addBlock(blob);
const start = process.hrtime.bigint();
for (const blob of blobs.slice(Number(firstCallBlock) - 1)) await target.chain.addBlock(blob);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
rows.push({
  case: 'contract-call',
  impl: native.impl,
  unit: 'calls/s',
  value: Math.round((PLAYERS * BLOCKS) / seconds),
});

runBench('execution', rows);
