/**
 * Transfer proofs, native vs fallback (issue 7 targets, native: ring 16 prove ≤ 90 ms and verify ≤ 45 ms, ring 128
 * verify ≤ 300 ms, a batch of 32 ≥ 3× faster per proof than one by one): prove-ring-N and verify-ring-N for N = 2,
 * 16, 32, 128; verify-batch32-ring-16-per-proof (ms per proof, batched) and batch32-ring-16-speedup (one by one ÷
 * batched); pool32-ring-16-per-proof through a VerifyPool of one worker per core; tx-size-ring-N, the bytes of a
 * one-payload transfer. The proofs are made once by the fastest core (both write the same bytes), verified by each.
 */
import { availableParallelism } from 'node:os';
import type { Core } from '../core-native/ts/core.js';
import { loadCore } from '../core-native/ts/index.js';
import { loadAddon } from '../core-native/ts/native.js';
import { verifyTransferProofs, type ProofItem } from '../core-native/ts/proof/batch-verifier.js';
import { seededScalars } from '../core-native/ts/proof/field.js';
import { proveTransfer } from '../core-native/ts/proof/prover.js';
import { verifyTransferProof } from '../core-native/ts/proof/verifier.js';
import { VerifyPool } from '../core-native/ts/proof/verify-pool.js';
import {
  encodeTransaction,
  proofSize,
  RPC_PAYLOAD_BYTES,
  TX_VERSION,
  TxType,
  type TransferTx,
} from '../protocol/transaction.js';
import { makeProofBatch, makeTransfer } from '../test/helpers/proof-fixtures.js';
import { runBench, timeIt, timeItAsync, type BenchRow } from './harness.js';

const DOMAIN = 'UMBRA';
const prover = await loadCore();
const gens = prover.generators(DOMAIN);
const RINGS = [2, 16, 32, 128];
const transfers = RINGS.map((n) =>
  makeTransfer(prover, gens, {
    n,
    senderIndex: 1,
    receiverIndex: n - 2,
    balance: 10n ** 12n,
    amount: 123_456_789n,
    fee: 1000n,
    random: seededScalars(prover.keccak256, `bench ${n}`),
  }),
);
const singles: ProofItem[] = transfers.map((tr) => ({
  statement: tr.statement,
  proof: proveTransfer(prover, gens, tr.statement, tr.witness),
}));
const batch32 = makeProofBatch(prover, gens, new Array(32).fill(16), 'bench batch');

const ms = (us: number): number => us / 1000;
const verifyOne = (core: Core, item: ProofItem): void => {
  if (!verifyTransferProof(core, core.generators(DOMAIN), item.statement, item.proof).valid)
    throw new Error(`${core.impl}: a benchmark proof does not verify`);
};

async function benchCore(core: Core, rows: BenchRow[]): Promise<void> {
  const impl = core.impl;
  const native = impl === 'native';
  const add = (name: string, value: number, unit = 'ms'): void => {
    rows.push({ case: name, impl, unit, value });
  };
  const coreGens = core.generators(DOMAIN);
  const slow = { minMs: native ? 2000 : 0, minIterations: native ? 5 : 1 };
  RINGS.forEach((n, i) => {
    add(
      `prove-ring-${n}`,
      ms(timeIt(() => proveTransfer(core, coreGens, transfers[i]!.statement, transfers[i]!.witness), slow)),
    );
    add(`verify-ring-${n}`, ms(timeIt(() => verifyOne(core, singles[i]!), slow)));
  });

  const oneByOne = ms(timeIt(() => batch32.forEach((item) => verifyOne(core, item)), slow)) / batch32.length;
  const batched =
    ms(
      timeIt(() => {
        if (!verifyTransferProofs(core, coreGens, batch32).every((r) => r.valid))
          throw new Error(`${impl}: the benchmark batch does not verify`);
      }, slow),
    ) / batch32.length;
  console.log(
    `${impl}: batch of 32 ring-16 proofs: ${oneByOne.toFixed(2)} ms per proof one by one, ${batched.toFixed(2)} ms batched`,
  );
  add('verify-batch32-ring-16-per-proof', batched);
  add('batch32-ring-16-speedup', oneByOne / batched, 'x');

  const pool = new VerifyPool({ impl });
  try {
    add('pool32-ring-16-per-proof', ms(await timeItAsync(() => pool.verify(DOMAIN, batch32), slow)) / batch32.length);
  } finally {
    await pool.close();
  }
}

const rows: BenchRow[] = [];
const addon = loadAddon();
if (addon.ok) await benchCore(await loadCore({ impl: 'native' }), rows);
else console.log(`native skipped: ${addon.reason}`);
await benchCore(await loadCore({ impl: 'fallback' }), rows);
console.log(`pool: ${availableParallelism()} workers`);
// Transaction sizes: one payload with its ring, ciphertexts and proof (encoding does not look inside the points).
for (const n of RINGS) {
  const point = new Uint8Array(33);
  const tx: TransferTx = {
    version: TX_VERSION,
    sourceNetwork: 0,
    destNetwork: 0,
    type: TxType.Normal,
    height: 1000n,
    blid: new Uint8Array(32),
    scData: new Uint8Array(0),
    payloads: [
      {
        scid: new Uint8Array(32),
        burn: 0n,
        rpcType: 0,
        rpcPayload: new Uint8Array(RPC_PAYLOAD_BYTES),
        proof: new Uint8Array(proofSize(Math.log2(n))),
        statement: {
          ringLog2: Math.log2(n),
          fees: 1000n,
          D: point,
          ring: new Array(n).fill(point),
          C: new Array(n).fill(point),
          roothash: new Uint8Array(32),
        },
      },
    ],
  };
  for (const impl of ['native', 'fallback'])
    rows.push({ case: `tx-size-ring-${n}`, impl, unit: 'bytes', value: encodeTransaction(tx).length });
}
runBench('proofs', rows);
