/**
 * Batch verification on both implementations: a batch of valid proofs passes with the results single verification
 * gives; one altered proof among eight — failing before the batched check (decoding, Σ-protocol) or only inside it
 * (inner product) — is named and the other seven pass.
 */
import t from 'tap';
import type { Core } from '../../../core-native/ts/core.js';
import { add } from '../../../core-native/ts/proof/field.js';
import { decodeTransferProof, encodeTransferProof } from '../../../core-native/ts/proof/serialize.js';
import { verifyTransferProofs, type ProofItem } from '../../../core-native/ts/proof/batch-verifier.js';
import { ringLog2 } from '../../../core-native/ts/proof/statement.js';
import { verifyTransferProof } from '../../../core-native/ts/proof/verifier.js';
import { loadCore } from '../../../core-native/ts/index.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { hex, makeProofBatch, PROOF_VECTORS, unhex, vectorStatement } from '../../helpers/proof-fixtures.js';

const DOMAIN = 'UMBRA';
const RINGS = [2, 4, 8, 2, 16, 4, 2, 8];

// Made once, by the native prover when it loads (the fallback would take seconds per proof).
const prover = await loadCore();
const ITEMS = makeProofBatch(prover, prover.generators(DOMAIN), RINGS, 'batch');

/** The proof with its inner-product scalar b changed: the transcript and Σ-protocol still hold, the batched check does not. */
function alterInnerProduct(core: Core, item: ProofItem): ProofItem {
  const decoded = decodeTransferProof(core, item.proof, ringLog2(item.statement.ring.length));
  return { ...item, proof: encodeTransferProof(core, { ...decoded, ipaB: add(decoded.ipaB, 1n) }) };
}

await forEachCore(t, async (t, core) => {
  const gens = core.generators(DOMAIN);

  t.test('a batch of valid proofs passes with the single-verification results', async (t) => {
    const results = verifyTransferProofs(core, gens, ITEMS);
    t.equal(results.length, ITEMS.length);
    results.forEach((result, i) => {
      const single = verifyTransferProof(core, gens, ITEMS[i]!.statement, ITEMS[i]!.proof);
      t.ok(result.valid && single.valid, `proof ${i} (ring ${RINGS[i]}) valid`);
      if (result.valid && single.valid) {
        t.equal(hex(result.u), hex(single.u), `proof ${i}: tag u`);
        t.equal(hex(result.nonce), hex(single.nonce), `proof ${i}: nonce`);
        t.equal(result.senderParity, single.senderParity, `proof ${i}: sender parity`);
      }
    });
    const vectors = verifyTransferProofs(
      core,
      core.generators('DERO'),
      PROOF_VECTORS.map((v) => ({ statement: vectorStatement(core, v), proof: unhex(v.proof_hex) })),
    );
    t.ok(
      vectors.every((r) => r.valid),
      'the reference vectors (rings 2, 4, 8) pass as one batch',
    );
    t.same(verifyTransferProofs(core, gens, []), [], 'an empty batch');
    t.ok(verifyTransferProofs(core, gens, ITEMS.slice(0, 1))[0]!.valid, 'a batch of one');
  });

  t.test('one altered proof in a batch of 8 is named, the others pass', async (t) => {
    const cases: [string, number, (item: ProofItem) => ProofItem, RegExp][] = [
      [
        'inner product (fails only the batched check)',
        4,
        (item) => alterInnerProduct(core, item),
        /range-proof and index-commitment/,
      ],
      [
        'fee (fails the Σ-protocol)',
        1,
        (item) => ({ ...item, statement: { ...item.statement, fee: item.statement.fee + 1n } }),
        /Σ-protocol/,
      ],
      ['length (fails decoding)', 7, (item) => ({ ...item, proof: item.proof.subarray(1) }), /is \d+ bytes, got/],
      [
        'last byte: the sign of R[6] (fails only the batched check)',
        0,
        (item) => ({ ...item, proof: item.proof.map((b, i, all) => (i === all.length - 1 ? b ^ 1 : b)) }),
        /range-proof and index-commitment/,
      ],
    ];
    for (const [name, bad, alter, reason] of cases) {
      const items = ITEMS.map((item, i) => (i === bad ? alter(item) : item));
      const results = verifyTransferProofs(core, gens, items);
      results.forEach((result, i) => {
        if (i === bad)
          t.match(
            result,
            { valid: false, reason },
            `${name}: proof ${i} rejected${result.valid ? '' : ` (${result.reason})`}`,
          );
        else t.ok(result.valid, `${name}: proof ${i} passes`);
      });
    }
  });
});
