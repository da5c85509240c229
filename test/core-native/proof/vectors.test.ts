/**
 * The reference transfer proofs (test/vectors/proof_vectors.json, generator domain DERO; docs/cryptography.md § Test vectors) on both implementations:
 * each verifies, gives the published tag u and nonce, and fails when any single input changes — fee, burn, a
 * ciphertext, D, a ring key, a new balance, the txid, the state root, the asset slot, or one byte of the proof.
 */
import t from 'tap';
import type { Core } from '../../../core-native/ts/core.js';
import { bigintToBytes32BE, readUint256BE } from '../../../core-native/ts/bigint-bytes.js';
import { fOffset, transferProofSize } from '../../../core-native/ts/proof/serialize.js';
import { buildTransferCiphertexts, ringLog2, type TransferStatement } from '../../../core-native/ts/proof/statement.js';
import { verifyTransferProof } from '../../../core-native/ts/proof/verifier.js';
import { forEachCore } from '../../helpers/core-impls.js';
import { hex, PROOF_VECTORS, unhex, vectorStatement } from '../../helpers/proof-fixtures.js';

await forEachCore(t, async (t, core: Core) => {
  const gens = core.generators('DERO');
  const native = core.impl === 'native';

  for (const v of PROOF_VECTORS) {
    t.test(`ring ${v.ring_size}`, async (t) => {
      const statement = vectorStatement(core, v);
      const proof = unhex(v.proof_hex);
      t.equal(proof.length, transferProofSize(ringLog2(v.ring_size)), 'proof size 1013 + 328·m');
      const result = verifyTransferProof(core, gens, statement, proof);
      t.ok(result.valid, `verifies${result.valid ? '' : `: ${result.reason}`}`);
      if (result.valid) {
        t.equal(hex(core.g1Compress(result.u)), v.u, 'tag u');
        t.equal(hex(result.nonce), v.proof_nonce_keccak_u, 'nonce = K(compressed u)');
        t.equal(result.senderParity, v.sender_index % 2, 'sender parity');
      }

      const rejects = (name: string, changed: Partial<TransferStatement>, bytes = proof): void => {
        const r = verifyTransferProof(core, gens, { ...statement, ...changed }, bytes);
        t.notOk(r.valid, `${name} changed: rejected${r.valid ? '' : ` (${r.reason})`}`);
      };
      const bump = (p: Uint8Array): Uint8Array => core.g1Add(p, gens.G);
      const replace = (list: Uint8Array[], i: number): Uint8Array[] => list.map((p, j) => (j === i ? bump(p) : p));
      rejects('fee', { fee: statement.fee + 1n });
      rejects('burn', { burn: statement.burn + 1n });
      // Only F = fee + burn enters the proof; the split between them is bound by the txid (which covers both).
      if (statement.fee > 0n)
        t.ok(
          verifyTransferProof(core, gens, { ...statement, fee: statement.fee - 1n, burn: statement.burn + 1n }, proof)
            .valid,
          'moving fee into burn keeps F: the proof alone accepts (the txid binds the split)',
        );
      for (let i = 0; i < v.ring_size; i++) {
        rejects(`C[${i}]`, { C: replace(statement.C, i) });
        rejects(`ring key ${i}`, { ring: replace(statement.ring, i) });
      }
      rejects('CLn[sender]', { CLn: replace(statement.CLn, v.sender_index) });
      rejects('CRn[sender]', { CRn: replace(statement.CRn, v.sender_index) });
      // a₀ = a_m = 0 makes p_j = 0 for every member of the receiver's parity: their new balances do not enter.
      t.ok(
        verifyTransferProof(
          core,
          gens,
          {
            ...statement,
            CLn: replace(statement.CLn, v.receiver_index),
            CRn: replace(statement.CRn, v.receiver_index),
          },
          proof,
        ).valid,
        'the new balances of the other parity class do not enter the proof',
      );
      rejects('D', { D: bump(statement.D) });
      rejects('txid', { txid: bigintToBytes32BE(readUint256BE(statement.txid) ^ 1n) });
      rejects('roothash', { roothash: bigintToBytes32BE(readUint256BE(statement.roothash) ^ 1n) });
      rejects('scid', { scid: bigintToBytes32BE(1n) });
      rejects('scid index', { scidIndex: statement.scidIndex + 1 });
      rejects('ring order', {
        ring: [...statement.ring].reverse(),
        C: [...statement.C].reverse(),
        CLn: [...statement.CLn].reverse(),
        CRn: [...statement.CRn].reverse(),
      });

      // One proof byte: every 5th byte natively (plus every field's first and last byte), a sample on the fallback.
      const positions = new Set<number>();
      const step = native ? 5 : 97;
      for (let i = 0; i < proof.length; i += step) positions.add(i);
      for (const i of [
        0,
        32,
        33,
        fOffset(ringLog2(v.ring_size)),
        fOffset(ringLog2(v.ring_size)) + 31,
        proof.length - 34,
        proof.length - 1,
      ])
        positions.add(i);
      let rejected = 0;
      for (const i of positions) {
        const bytes = proof.slice();
        bytes[i]! ^= 1 << (i % 8);
        if (!verifyTransferProof(core, gens, statement, bytes).valid) rejected++;
      }
      t.equal(rejected, positions.size, `every one of ${positions.size} single-byte changes of the proof is rejected`);
      t.notOk(verifyTransferProof(core, gens, statement, proof.subarray(1)).valid, 'a short proof is rejected');
      t.notOk(
        verifyTransferProof(core, gens, { ...statement, C: statement.C.slice(1) }, proof).valid,
        'a statement with |C| ≠ |Y| is rejected',
      );
      t.notOk(
        verifyTransferProof(core, gens, { ...statement, fee: (1n << 64n) - 1n, burn: 1n }, proof).valid,
        'fee + burn overflowing 64 bits is rejected',
      );
    });

    t.test(`ring ${v.ring_size}: the statement rebuilds from the secrets`, async (t) => {
      const statement = vectorStatement(core, v);
      const G = core.generators('DERO').G;
      t.same(
        v.secret_keys_hex.map((sk) => hex(core.g1Compress(core.g1Mul(G, unhex(sk))))),
        v.public_keys.slice(0, v.secret_keys_hex.length),
        'the given secret keys own the first ring keys',
      );
      const balances = v.prev_balance_left.map((L, i) => ({
        L: core.g1Decompress(unhex(L)),
        R: core.g1Decompress(unhex(v.prev_balance_right[i]!)),
      }));
      const built = buildTransferCiphertexts(core, gens, {
        ring: statement.ring,
        balances,
        senderIndex: v.sender_index,
        receiverIndex: v.receiver_index,
        amount: BigInt(v.amount),
        fee: BigInt(v.fees),
        burn: BigInt(v.burn),
        r: readUint256BE(unhex(v.r_hex)),
      });
      t.same(
        built.C.map((p) => hex(core.g1Compress(p))),
        v.C,
        'C',
      );
      t.equal(hex(core.g1Compress(built.D)), v.D, 'D');
      t.same(
        built.CLn.map((p) => hex(core.g1Compress(p))),
        v.CLn,
        'CLn',
      );
      t.same(
        built.CRn.map((p) => hex(core.g1Compress(p))),
        v.CRn,
        'CRn',
      );
    });
  }
});
