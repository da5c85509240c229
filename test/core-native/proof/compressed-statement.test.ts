/**
 * Compressed statements on both implementations: packing keeps an item in one buffer and unpacking gives it back;
 * expanding one gives back the statement it was made from; a point that does not decompress is named; verifying compressed items gives
 * what verifying the statements gives, with the ring's balances after each valid transfer, and marks an item with a
 * bad point invalid without failing the others.
 */
import t from 'tap';
import { verifyTransferProofs } from '../../../core-native/ts/proof/batch-verifier.js';
import {
  balanceAfter,
  ciphertextAt,
  expandStatement,
  packItem,
  StatementPointError,
  unpackItem,
  verifyCompressedProofs,
} from '../../../core-native/ts/proof/compressed-statement.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { compressedItem, makeProofBatch } from '../../helpers/proof-fixtures.js';

const DOMAIN = 'UMBRA';

await forEachCore(t, async (t, core) => {
  const gens = core.generators(DOMAIN);
  const items = makeProofBatch(core, gens, [2, 4, 2], 'compressed');
  const compressed = items.map((item) => compressedItem(core, item));

  t.test('expanding gives back the statement', async (t) => {
    compressed.forEach((item, i) => t.same(expandStatement(core, item.statement), items[i]!.statement, `item ${i}`));
  });

  t.test('packing copies an item into one buffer of its own size, and unpacking gives it back', async (t) => {
    const item = compressed[1]!;
    const packed = packItem(item);
    const { ring, C, D, L, R, roothash, scid, txid } = item.statement;
    const fields = [...ring, ...C, D, ...L, ...R, roothash, scid, txid, item.proof];
    t.equal(
      packed.bytes.length,
      fields.reduce((sum, field) => sum + field.length, 0),
      'the fields and nothing more',
    );
    // Posted to a worker as it is: a structured clone.
    const unpacked = unpackItem(structuredClone(packed));
    t.same(unpacked, item, 'the same item');
    const views = [...unpacked.statement.ring, ...unpacked.statement.R, unpacked.statement.txid, unpacked.proof];
    t.ok(
      views.every((view) => view.buffer === unpacked.proof.buffer),
      'its fields are views of one buffer',
    );
  });

  t.test('packing refuses fields of the wrong size', async (t) => {
    const { statement, proof } = compressed[0]!;
    t.throws(() => packItem({ statement: { ...statement, D: statement.D.subarray(1) }, proof }), {
      message: /32 bytes, not 33/,
    });
    t.throws(() => packItem({ statement: { ...statement, L: statement.L.slice(1) }, proof }), {
      message: /differ in length/,
    });
  });

  t.test('a point that does not decompress is named', async (t) => {
    const statement = compressed[1]!.statement;
    const offCurve = new Uint8Array(33).fill(0xff);
    for (const [what, broken] of [
      ['ring member 2', { ...statement, ring: statement.ring.map((p, j) => (j === 2 ? offCurve : p)) }],
      ['C[1]', { ...statement, C: statement.C.map((p, j) => (j === 1 ? offCurve : p)) }],
      ['D', { ...statement, D: offCurve }],
      ['balance R of ring member 3', { ...statement, R: statement.R.map((p, j) => (j === 3 ? offCurve : p)) }],
    ] as const) {
      const error = t.throws(
        () => expandStatement(core, broken),
        { name: 'StatementPointError', code: 'proof.not-a-curve-point', what },
        what,
      );
      t.ok(error instanceof StatementPointError);
    }
  });

  t.test(
    'verification as for the statements, with the balances after and the ciphertexts; a bad point fails only its item',
    async (t) => {
      const plain = verifyTransferProofs(core, gens, items);
      const results = verifyCompressedProofs(core, gens, compressed);
      results.forEach((result, i) => {
        const bare = { ...result, balancesAfter: undefined, ciphertexts: undefined };
        t.same(bare, { ...plain[i], balancesAfter: undefined, ciphertexts: undefined }, `item ${i}`);
        const { CLn, CRn, C, D } = items[i]!.statement;
        const n = CLn.length;
        t.same(
          Array.from({ length: n }, (_, j) => balanceAfter(result.balancesAfter!, n, j)),
          CLn.map((p, j) => ({ L: core.g1Compress(p), R: core.g1Compress(CRn[j]!) })),
          `item ${i}: CLn, CRn`,
        );
        t.same(
          Array.from({ length: n + 1 }, (_, j) => ciphertextAt(result.ciphertexts!, j)),
          [...C, D],
          `item ${i}: C and D as points`,
        );
        t.equal(result.balancesAfter!.length, 2 * n * 33, `item ${i}: the balances after and nothing more`);
        t.equal(result.ciphertexts!.length, (n + 1) * 64, `item ${i}: the ciphertexts and nothing more`);
      });
      const broken = { ...compressed[0]!, statement: { ...compressed[0]!.statement, D: new Uint8Array(33) } };
      const [bad, ...rest] = verifyCompressedProofs(core, gens, [broken, ...compressed.slice(1)]);
      t.match(bad, { valid: false, reason: /^bad statement: D is not a curve point: / });
      t.notOk('balancesAfter' in bad!, 'an invalid item has no balances after');
      t.notOk('ciphertexts' in bad!, 'nor ciphertexts');
      t.ok(
        rest.every((r) => r.valid),
        'the others pass',
      );
    },
  );
});
