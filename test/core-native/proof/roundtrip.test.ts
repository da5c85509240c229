/**
 * Prover ↔ verifier on both implementations: native proofs verify on the fallback for every ring size; fallback
 * proofs verify natively (small rings and one large one — the fallback prover takes seconds); with the same
 * randomness both provers write the same bytes; the prover refuses false statements (above all overspending)
 * with clear errors; property tests on random amounts and ring positions.
 */
import t from 'tap';
import { seededScalars } from '../../../core-native/ts/proof/field.js';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { ProofErrorCode } from '../../../core-native/ts/proof/proof-errors.js';
import { ProofError, proveTransfer } from '../../../core-native/ts/proof/prover.js';
import { verifyTransferProof } from '../../../core-native/ts/proof/verifier.js';
import { bothCores, forEachCore, nativeMissing } from '../../helpers/core-impls.js';
import { hex, makeTransfer } from '../../helpers/proof-fixtures.js';

const DOMAIN = 'UMBRA';

t.test(
  'native proofs verify on the fallback for every ring size, and fallback proofs natively',
  { skip: nativeMissing() },
  async (t) => {
    const { native, fallback } = await bothCores();
    const random = seededScalars(native.keccak256, 'cross');
    for (let m = 1; m <= 7; m++) {
      const n = 1 << m;
      const fx = makeTransfer(native, native.generators(DOMAIN), {
        n,
        senderIndex: n - 1,
        receiverIndex: 0,
        balance: 5_000_000n,
        amount: 1_234_567n,
        fee: 640n,
        burn: m === 3 ? 99n : 0n,
        random,
      });
      const proof = proveTransfer(native, native.generators(DOMAIN), fx.statement, fx.witness);
      t.ok(
        verifyTransferProof(native, native.generators(DOMAIN), fx.statement, proof).valid,
        `ring ${n}: native → native`,
      );
      t.ok(
        verifyTransferProof(fallback, fallback.generators(DOMAIN), fx.statement, proof).valid,
        `ring ${n}: native → fallback`,
      );
    }
    for (const n of [2, 4, 128]) {
      const fx = makeTransfer(native, native.generators(DOMAIN), {
        n,
        senderIndex: 2 % n,
        receiverIndex: 1,
        balance: 10n ** 12n,
        amount: 10n ** 11n,
        fee: 1n,
        random,
      });
      const proof = proveTransfer(fallback, fallback.generators(DOMAIN), fx.statement, fx.witness);
      t.ok(
        verifyTransferProof(native, native.generators(DOMAIN), fx.statement, proof).valid,
        `ring ${n}: fallback → native`,
      );
    }
  },
);

t.test('with the same randomness both provers write the same bytes', { skip: nativeMissing() }, async (t) => {
  const { native, fallback } = await bothCores();
  for (const n of [2, 8]) {
    const fx = makeTransfer(native, native.generators(DOMAIN), {
      n,
      senderIndex: 0,
      receiverIndex: n - 1,
      balance: 77_000n,
      amount: 76_000n,
      fee: 999n,
      burn: 1n,
      random: seededScalars(native.keccak256, `statement ${n}`),
    });
    const a = proveTransfer(native, native.generators(DOMAIN), fx.statement, fx.witness, {
      random: seededScalars(native.keccak256, 'proof'),
    });
    const b = proveTransfer(fallback, fallback.generators(DOMAIN), fx.statement, fx.witness, {
      random: seededScalars(fallback.keccak256, 'proof'),
    });
    t.equal(hex(a), hex(b), `ring ${n}: identical proofs (remaining balance 0)`);
  }
});

await forEachCore(t, async (t, core) => {
  const gens = core.generators(DOMAIN);
  const native = core.impl === 'native';

  t.test('the prover refuses false statements with clear errors', async (t) => {
    const random = seededScalars(core.keccak256, 'refuse');
    const fx = makeTransfer(core, gens, {
      n: 4,
      senderIndex: 1,
      receiverIndex: 2,
      balance: 1000n,
      amount: 900n,
      fee: 100n,
      random,
    });
    const prove = (change: object, statement = fx.statement): Uint8Array =>
      proveTransfer(core, gens, statement, { ...fx.witness, ...change });
    t.throws(() => prove({ balance: 999n }), {
      name: 'ProofError',
      code: ProofErrorCode.InsufficientBalance,
      message: 'insufficient balance: the transfer needs 1000 (amount 900 + fee 100 + burn 0) but the balance is 999',
    });
    t.throws(() => prove({ amount: 1n << 64n }), { message: /amount must be a uint64/ });
    t.throws(() => prove({ receiverIndex: 3 }), {
      code: ProofErrorCode.BadWitness,
      message: 'sender index 1 and receiver index 3 must have opposite parity',
    });
    t.throws(() => prove({ receiverIndex: 4 }), { message: /receiver index 4 is outside the ring of 4/ });
    t.throws(() => prove({ sk: fx.witness.sk.map((b, i) => (i === 31 ? b ^ 1 : b)) }), {
      message: 'the secret key does not belong to ring member 1',
    });
    t.throws(() => prove({ r: fx.witness.r + 1n }), { message: /D is not r·G/ });
    t.throws(() => prove({ amount: 899n, balance: 999n }), {
      message: /receiver's ciphertext C does not encrypt the amount|sender's ciphertext/,
    });
    t.throws(() => prove({ balance: 1001n }), {
      message: /new encrypted balance does not decrypt to 1 \(balance − amount − fee − burn\)/,
    });
    t.throws(() => prove({}, { ...fx.statement, C: fx.statement.C.slice(1) }), {
      name: 'ProofError',
      code: ProofErrorCode.BadStatement,
      message: /C must have one entry per ring member/,
    });
    t.ok(
      verifyTransferProof(core, gens, fx.statement, prove({})).valid,
      'the honest witness proves (spending the whole balance)',
    );
    t.ok(new ProofError(ProofErrorCode.BadWitness, 'x') instanceof UmbraError, 'in the one error model');
  });

  t.test('property: random amounts, fees and ring positions', async (t) => {
    const random = seededScalars(core.keccak256, `property ${core.impl}`);
    const cases = native ? 24 : 2;
    for (let i = 0; i < cases; i++) {
      const m = native ? 1 + Number(random() % 7n) : 1 + (i % 2);
      const n = 1 << m;
      const senderIndex = Number(random() % BigInt(n));
      let receiverIndex = Number(random() % BigInt(n));
      if ((receiverIndex - senderIndex) % 2 === 0) receiverIndex = (receiverIndex + 1) % n;
      const bits = Number(random() % 65n);
      const balance = random() % (1n << BigInt(bits)) || 0n;
      const fee = balance > 0n ? random() % (balance / 4n + 1n) : 0n;
      const burn = i % 3 === 0 && balance > fee ? (random() % (balance - fee + 1n)) / 2n : 0n;
      const amount = balance - fee - burn > 0n ? random() % (balance - fee - burn + 1n) : 0n;
      const fx = makeTransfer(core, gens, {
        n,
        senderIndex,
        receiverIndex,
        balance,
        amount,
        fee,
        burn,
        random,
        scidIndex: i % 3,
      });
      const proof = proveTransfer(core, gens, fx.statement, fx.witness, { random });
      const result = verifyTransferProof(core, gens, fx.statement, proof);
      t.ok(
        result.valid,
        `ring ${n}, sender ${senderIndex}, receiver ${receiverIndex}, balance ${balance}, amount ${amount}, fee ${fee}, burn ${burn}`,
      );
      if (result.valid) t.equal(result.senderParity, senderIndex % 2, 'sender parity revealed');
      const other = verifyTransferProof(core, gens, { ...fx.statement, fee: fx.statement.fee + 1n }, proof);
      t.notOk(other.valid, 'a different fee fails');
    }
  });

  t.test('edge amounts: zero, the whole balance, the largest uint64', async (t) => {
    const random = seededScalars(core.keccak256, 'edges');
    const max = (1n << 64n) - 1n;
    const edges = [
      [max, max, 0n],
      [0n, 0n, 0n],
      [max, 0n, max],
      [max, 1n, 0n],
    ] as const;
    for (const [balance, amount, fee] of native ? edges : edges.slice(0, 1)) {
      const fx = makeTransfer(core, gens, { n: 2, senderIndex: 1, receiverIndex: 0, balance, amount, fee, random });
      const proof = proveTransfer(core, gens, fx.statement, fx.witness, { random });
      t.ok(
        verifyTransferProof(core, gens, fx.statement, proof).valid,
        `balance ${balance}, amount ${amount}, fee ${fee}`,
      );
    }
  });
});
