/**
 * Transfer proofs, native vs fallback (issue 7 targets, native: ring 16 prove ≤ 90 ms and verify ≤ 45 ms, ring 128
 * verify ≤ 300 ms, a batch of 32 ≥ 3× faster per proof than one by one). batch32-ring16 is that speed-up (single
 * verification time per proof / batch verification time per proof); pool32-ring16 is the time per proof of the same
 * 32 through a VerifyPool of one worker per core. The proofs are made once by the fastest core (both write the same
 * bytes) and verified by each.
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
import { makeProofBatch, makeTransfer } from '../test/helpers/proof-fixtures.js';
import { runBench, timeIt, timeItAsync, type BenchRow } from './harness.js';

const DOMAIN = 'UMBRA';
const prover = await loadCore();
const gens = prover.generators(DOMAIN);
const ring16 = makeTransfer(prover, gens, { n: 16, senderIndex: 5, receiverIndex: 10, balance: 10n ** 12n, amount: 123_456_789n, fee: 1000n, random: seededScalars(prover.keccak256, 'bench 16') });
const single16: ProofItem = { statement: ring16.statement, proof: proveTransfer(prover, gens, ring16.statement, ring16.witness) };
const [single128] = makeProofBatch(prover, gens, [128], 'bench single');
const batch32 = makeProofBatch(prover, gens, new Array(32).fill(16), 'bench batch');

const ms = (us: number): number => us / 1000;
const verifyOne = (core: Core, item: ProofItem): void => {
  if (!verifyTransferProof(core, core.generators(DOMAIN), item.statement, item.proof).valid) throw new Error(`${core.impl}: a benchmark proof does not verify`);
};

async function benchCore(core: Core, rows: BenchRow[]): Promise<void> {
  const impl = core.impl;
  const native = impl === 'native';
  const add = (name: string, value: number, unit = 'ms'): void => {
    rows.push({ case: name, impl, unit, value });
  };
  const coreGens = core.generators(DOMAIN);
  const slow = { minMs: native ? 2000 : 0, minIterations: native ? 5 : 1 };
  add('prove-ring16', ms(timeIt(() => proveTransfer(core, coreGens, ring16.statement, ring16.witness), slow)));
  add('verify-ring16', ms(timeIt(() => verifyOne(core, single16), slow)));
  add('verify-ring128', ms(timeIt(() => verifyOne(core, single128!), slow)));

  const oneByOne = ms(timeIt(() => batch32.forEach((item) => verifyOne(core, item)), slow)) / batch32.length;
  const batched = ms(timeIt(() => {
    if (!verifyTransferProofs(core, coreGens, batch32).every((r) => r.valid)) throw new Error(`${impl}: the benchmark batch does not verify`);
  }, slow)) / batch32.length;
  console.log(`${impl}: batch of 32 ring-16 proofs: ${oneByOne.toFixed(2)} ms per proof one by one, ${batched.toFixed(2)} ms batched`);
  add('batch32-ring16', oneByOne / batched, 'x');

  const pool = new VerifyPool({ impl });
  try {
    add('pool32-ring16', ms(await timeItAsync(() => pool.verify(DOMAIN, batch32), slow)) / batch32.length);
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
runBench('proofs', rows);
