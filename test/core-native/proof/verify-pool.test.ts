/**
 * The proof-verification pool on both implementations (workers load the same Core as the test body): results as
 * the in-thread batch verifier gives them, in item order, for one caller and for several at once; a bad proof is
 * named; close() fails what is still running and refuses new work; a worker that cannot start fails its jobs; and
 * an idle pool, closed or not, lets the process exit (no handle left referenced).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { verifyTransferProofs, type ProofItem } from '../../../core-native/ts/proof/batch-verifier.js';
import type { TransferVerification } from '../../../core-native/ts/proof/verifier.js';
import { VerifyPool } from '../../../core-native/ts/proof/verify-pool.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { compressedItem, hex, makeProofBatch } from '../../helpers/proof-fixtures.js';

const DOMAIN = 'UMBRA';
const prover = await loadCore();
const ITEMS = makeProofBatch(prover, prover.generators(DOMAIN), [2, 8, 4, 2, 16, 2, 4, 8, 2], 'pool');

const summary = (results: TransferVerification[]): string[] =>
  results.map((r) => (r.valid ? `valid ${hex(r.u)} ${hex(r.nonce)} ${r.senderParity}` : `invalid: ${r.reason}`));

await forEachCore(t, async (t, core) => {
  const pool = new VerifyPool({ impl: core.impl, size: 2 });
  t.teardown(() => pool.close());
  const gens = core.generators(DOMAIN);

  t.test('results as the in-thread batch verifier gives them, in order', async (t) => {
    const expected = summary(verifyTransferProofs(core, gens, ITEMS));
    t.ok(
      expected.every((line) => line.startsWith('valid')),
      'the items are valid',
    );
    t.same(summary(await pool.verify(DOMAIN, ITEMS)), expected, 'one caller');
    const [a, b, c] = await Promise.all([
      pool.verify(DOMAIN, ITEMS.slice(0, 3)),
      pool.verify(DOMAIN, ITEMS.slice(3)),
      pool.verify(DOMAIN, ITEMS.slice(4, 5)),
    ]);
    t.same(
      [...summary(a), ...summary(b), ...summary(c)],
      [...expected.slice(0, 3), ...expected.slice(3), expected[4]],
      'three callers at once',
    );
    t.same(await pool.verify(DOMAIN, []), [], 'no items');
  });

  t.test('compressed items: the workers expand them; a point off the curve fails its item only', async (t) => {
    const expected = summary(verifyTransferProofs(core, gens, ITEMS));
    const compressed = ITEMS.map((item) => compressedItem(core, item));
    const results = await pool.verifyCompressed(DOMAIN, compressed);
    t.same(summary(results), expected, 'as for the statements');
    t.same(
      results.map((r) => r.balancesAfter?.length),
      ITEMS.map((item) => 2 * 33 * item.statement.ring.length),
      'each with its ring balances after',
    );
    const broken = {
      ...compressed[3]!,
      statement: {
        ...compressed[3]!.statement,
        C: compressed[3]!.statement.C.map(() => new Uint8Array(33).fill(0xff)),
      },
    };
    const [bad] = await pool.verifyCompressed(DOMAIN, [broken]);
    t.match(bad, { valid: false, reason: /C\[0\] is not a curve point/ });
  });

  t.test('a bad proof is named', async (t) => {
    const bad: ProofItem = { ...ITEMS[5]!, statement: { ...ITEMS[5]!.statement, fee: 11n } };
    const results = await pool.verify(
      DOMAIN,
      ITEMS.map((item, i) => (i === 5 ? bad : item)),
    );
    results.forEach((r, i) =>
      i === 5
        ? t.match(r, { valid: false, reason: /Σ-protocol/ }, 'item 5 rejected')
        : t.ok(r.valid, `item ${i} passes`),
    );
  });
});

t.test('size defaults to the available cores', async (t) => {
  t.equal(new VerifyPool().size, availableParallelism());
  t.equal(new VerifyPool({ size: 0 }).size, 1, 'at least one worker');
});

t.test('close() fails running verifications and refuses new ones', async (t) => {
  const pool = new VerifyPool({ size: 2 });
  const running = t.rejects(pool.verify(DOMAIN, ITEMS), /proof verification worker exited/);
  await pool.close();
  await running;
  await t.rejects(pool.verify(DOMAIN, ITEMS), { message: 'the proof verification pool is closed' });
});

t.test('a worker that cannot start fails its jobs with the reason', async (t) => {
  const pool = new VerifyPool({ size: 1, impl: 'bogus' as 'auto' });
  t.teardown(() => pool.close());
  await t.rejects(pool.verify(DOMAIN, ITEMS.slice(0, 1)), /unknown crypto implementation "bogus"/);
  await t.rejects(
    pool.verify(DOMAIN, ITEMS.slice(0, 1)),
    /unknown crypto implementation "bogus"/,
    'and again with a fresh worker',
  );
});

t.test('an idle pool lets the process exit, closed or not', async (t) => {
  for (const close of [true, false]) {
    // CommonJS with dynamic imports: workers inherit the parent's flags, and --input-type is not one they accept.
    const url = (path: string): string => JSON.stringify(new URL(path, import.meta.url).href);
    const script = `(async () => {
      const { loadCore } = await import(${url('../../../core-native/ts/index.js')});
      const { VerifyPool } = await import(${url('../../../core-native/ts/proof/verify-pool.js')});
      const { PROOF_VECTORS, unhex, vectorStatement } = await import(${url('../../helpers/proof-fixtures.js')});
      const core = await loadCore();
      const pool = new VerifyPool({ size: 2 });
      const results = await pool.verify('DERO', PROOF_VECTORS.map((v) => ({ statement: vectorStatement(core, v), proof: unhex(v.proof_hex) })));
      console.log(results.map((r) => r.valid).join(','));
      ${close ? 'await pool.close();' : ''}
    })();`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    t.equal(
      run.signal,
      null,
      `${close ? 'closed' : 'idle'}: exits by itself${run.signal ? ` (killed by ${run.signal}: still running after 30 s)` : ''}`,
    );
    t.equal(
      run.stdout.trim(),
      'true,true,true',
      `${close ? 'closed' : 'idle'}: verified the vectors${run.stderr ? `; stderr: ${run.stderr}` : ''}`,
    );
  }
});
