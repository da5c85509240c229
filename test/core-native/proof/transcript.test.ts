/**
 * The Fiat–Shamir transcript is shared by the prover and the verifier; these pinned digests of seeded proofs catch
 * any change to the challenge sequence (which would make every existing proof fail), and the verifier accepts them.
 */
import t from 'tap';
import { seededScalars } from '../../../core-native/ts/proof/field.js';
import { proveTransfer } from '../../../core-native/ts/proof/prover.js';
import { verifyTransferProof } from '../../../core-native/ts/proof/verifier.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { hex, makeTransfer } from '../../helpers/proof-fixtures.js';

/** Keccak-256 of the seeded proof for each ring size. */
const PINNED: Record<number, string> = {
  2: 'dc76f676380d31595251c204716bdbe42e7843be91569d8b39f642d8d24f84dd',
  8: '388666633f306c7ab5008a27ec849be592bdfe4e42c1f1858fb240e3bd463d4c',
};

await forEachCore(t, async (t, core) => {
  const gens = core.generators('UMBRA');
  for (const n of [2, 8]) {
    const random = seededScalars(core.keccak256, `pinned statement ${n}`);
    const fx = makeTransfer(core, gens, {
      n,
      senderIndex: 1,
      receiverIndex: n - 2,
      balance: 90_000n,
      amount: 12_345n,
      fee: 640n,
      burn: 7n,
      random,
    });
    const proof = proveTransfer(core, gens, fx.statement, fx.witness, {
      random: seededScalars(core.keccak256, 'pinned proof'),
    });
    t.equal(hex(core.keccak256(proof)), PINNED[n], `ring ${n}: the seeded proof keeps its bytes`);
    t.ok(
      verifyTransferProof(core, gens, fx.statement, proof).valid,
      `ring ${n}: the verifier follows the same transcript`,
    );
  }
});
