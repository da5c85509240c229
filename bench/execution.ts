/**
 * Transaction execution: ring-16 transfers verified per second (native and fallback core, one by one on one core and
 * batched on the worker pool over both cores), and lottery
 * calls applied per second in blocks (blocks of 16 calls, each a ring-2 transaction with a deposit, validated and
 * executed by a second chain — proofs, nonce heights, the contract run and the state commit).
 */
import { readFileSync } from 'node:fs';
import { loadCore } from '../core-native/ts/index.js';
import { toHex } from '../protocol/bytes.js';
import type { RpcArgument } from '../protocol/rpc-arguments.js';
import { NATIVE_SCID } from '../protocol/transfer-checks.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import {
  balanceOf,
  buildTestTransfer,
  premineAccount,
  premineBalance,
  registeredAccounts,
} from '../test/helpers/transfers.js';
import { runBench, type BenchRow } from './harness.js';
import { batchedRate, oneByOneRate, verifySample } from './lib/verify-rate.js';

const rows: BenchRow[] = [];
const native = await loadCore({ impl: 'native' });
const fallback = await loadCore({ impl: 'fallback' });

// Ring-16 transfers, verified against the state they reference.
const sample = await verifySample(native, 16);
for (const core of [native, fallback]) {
  const minMs = core === native ? 2000 : 4000;
  const add = (impl: string, value: number): void => {
    rows.push({ case: 'tx-verify-ring-16', impl: `${core.impl}-${impl}`, unit: 'tx/s', value });
  };
  add('one-by-one', oneByOneRate(core, sample, minMs));
  add('batched-2-cores', await batchedRate(core, sample, minMs));
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
