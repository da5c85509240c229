/**
 * checkPaymentProof on every core: the proofs a wallet makes name their receiver and amount (in a coin payload and a
 * token payload); an altered amount, a forged blinder, another transaction's proof, altered parts, unreadable text,
 * a transaction that is not a transfer and the wrong transaction are each refused with their own reason.
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Core } from '../../core-native/ts/core.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { encodeAddress, encodePaymentProof } from '../../protocol/address.js';
import { NETWORKS } from '../../protocol/network.js';
import { checkPaymentProof, PaymentProofErrorCode } from '../../protocol/payment-proof-check.js';
import { encodeRpcArguments } from '../../protocol/rpc-arguments.js';
import { NATIVE_SCID } from '../../protocol/transfer-checks.js';
import { prepareTransfer, type PreparedTransfer } from '../../protocol/transfer-builder.js';
import { coinbaseTx, encodeTransactionHeader, TxType, type Transaction } from '../../protocol/transaction.js';
import { forEachCore } from '../helpers/core-impls.js';
import { paymentProofOf } from '../helpers/payment-proofs.js';

const TOKEN = Uint8Array.from(randomBytes(32));

/** A transfer of 12345 units with a comment to ring member 1 of 4, and 7 tokens to member 0 of a ring of 2. */
function transfer(core: Core): { prepared: PreparedTransfer; keys: Uint8Array[] } {
  const { G } = core.generators(NETWORKS.simulator.generatorDomain);
  const secrets = Array.from({ length: 5 }, () => bigintToBytes32BE(BigInt(`0x${randomBytes(31).toString('hex')}`)));
  const keys = secrets.map((sk) => core.g1Compress(core.g1MulSecret(G, sk)));
  const prepared = prepareTransfer(core, core.generators(NETWORKS.simulator.generatorDomain), {
    type: TxType.Normal,
    secretKey: secrets[0]!,
    reference: { height: 5n, blid: new Uint8Array(32), roothash: Uint8Array.from(randomBytes(32)) },
    payloads: [
      {
        scid: NATIVE_SCID,
        ring: [keys[0]!, keys[1]!, keys[2]!, keys[3]!],
        senderIndex: 0,
        receiverIndex: 1,
        amount: 12345n,
        burn: 0n,
        fee: 60n,
        args: encodeRpcArguments([{ name: 'C', datatype: 'S', value: 'order 7' }]),
      },
      {
        scid: TOKEN,
        ring: [keys[4]!, keys[0]!],
        senderIndex: 1,
        receiverIndex: 0,
        amount: 7n,
        burn: 0n,
        fee: 0n,
        args: new Uint8Array(0),
      },
    ],
    balanceAt: (asset, key) =>
      asset.every((byte) => byte === 0) ? { nonceHeight: 0n, L: key, R: core.g1Compress(G) } : undefined,
    senderBalance: () => 1_000_000n,
  });
  return { prepared, keys };
}

const refused = (t: Test, check: () => unknown, code: PaymentProofErrorCode, message: RegExp) =>
  t.throws(check, { name: 'PaymentProofError', code, message });

t.test('payment proofs', (t) =>
  forEachCore(t, async (t, core) => {
    const { prepared, keys } = transfer(core);
    const { G } = core.generators(NETWORKS.simulator.generatorDomain);
    const check = (proof: string, tx: Transaction = prepared.tx, txid = prepared.txid) =>
      checkPaymentProof(core, 'simulator', { txid, tx, proof });
    const proof = paymentProofOf(core, prepared, 0, 1, 12345n);

    t.same(check(proof), {
      payload: 0,
      asset: '0'.repeat(64),
      ringIndex: 1,
      ringSize: 4,
      receiver: encodeAddress('simulator', keys[1]!),
      amount: 12345n,
      args: [{ name: 'C', datatype: 'S', value: 'order 7' }],
    });
    t.match(
      check(`  ${paymentProofOf(core, prepared, 1, 0, 7n)}\n`),
      { payload: 1, asset: Buffer.from(TOKEN).toString('hex'), ringIndex: 0, ringSize: 2, amount: 7n, args: [] },
      'a token payload without arguments; blanks around the text are ignored',
    );

    refused(
      t,
      () => check(paymentProofOf(core, prepared, 0, 1, 12346n)),
      PaymentProofErrorCode.WrongAmount,
      /^the proof opens the payload of umbt1\w+ \(ring member 2 of 4 of payload 1\), but that member did not receive 0\.12346 UMB \(12346 atomic units\): the proof's amount was altered$/,
    );
    refused(
      t,
      () => check(paymentProofOf(core, prepared, 1, 0, 8n)),
      PaymentProofErrorCode.WrongAmount,
      /did not receive 8 units of token [0-9a-f]{64}/,
    );

    // Anyone can make C_k − a·G a blinder and hash it; only the payload tells it apart.
    const lie = core.g1Sub(
      core.g1Decompress(prepared.tx.payloads[0]!.statement.C[3]!),
      core.g1Mul(G, bigintToBytes32BE(99_999n)),
    );
    const forged = encodePaymentProof(core.g1Compress(lie), core.keccak256(core.g1Compress(lie)), 99_999n);
    refused(
      t,
      () => check(forged),
      PaymentProofErrorCode.Forged,
      /^the ciphertext of umbt1\w+ \(ring member 4 of 4 of payload 1\) fits the proof's amount and blinder, but its shared secret does not open that member's payload: the proof is forged/,
    );

    const other = transfer(core).prepared;
    refused(
      t,
      () => check(paymentProofOf(core, other, 0, 1, 12345n)),
      PaymentProofErrorCode.OtherTransaction,
      /^no member of the 2 rings of transaction [0-9a-f]{64} received the payment this proof shows: it was made for another transaction$/,
    );

    const blinder = core.g1Compress(core.g1MulSecret(core.g1Decompress(keys[1]!), bigintToBytes32BE(3n)));
    refused(
      t,
      () => check(encodePaymentProof(blinder, Uint8Array.from(randomBytes(32)), 12345n)),
      PaymentProofErrorCode.Altered,
      /^the proof was altered: its shared secret is not the one its blinder gives$/,
    );
    const offCurve = Uint8Array.from(blinder);
    offCurve[32] = 2;
    refused(
      t,
      () => check(encodePaymentProof(offCurve, core.keccak256(offCurve), 12345n)),
      PaymentProofErrorCode.Altered,
      /^the proof was altered: its blinder is not a point of the curve$/,
    );

    for (const [text, message] of [
      ['', /^not a valid payment proof: it is empty/],
      ['umbproof1xyz', /^not a valid payment proof: it is too short/],
      [encodeAddress('simulator', keys[1]!), /starts with 'umbproof1', not 'umbt1'/],
      [`${proof.slice(0, -1)}${proof.endsWith('q') ? 'p' : 'q'}`, /checksum/],
    ] as const)
      refused(t, () => check(text), PaymentProofErrorCode.Unreadable, message);

    const coinbase = coinbaseTx(keys[1]!);
    refused(
      t,
      () => check(proof, coinbase, core.keccak256(encodeTransactionHeader(coinbase))),
      PaymentProofErrorCode.NotATransfer,
      /is a coinbase \(a block reward\), not a transfer: it holds no payment a proof could show$/,
    );
    refused(
      t,
      () => check(proof, prepared.tx, other.txid),
      PaymentProofErrorCode.WrongTransaction,
      /^the transaction checked is [0-9a-f]{64}, not [0-9a-f]{64}$/,
    );
  }),
);
