/**
 * Checks a payment proof (`umbproof1…`, docs/cryptography.md § Payloads) against a transaction, with nothing but the
 * transaction: which ring member of which payload received how much, or exactly why the proof does not fit.
 *
 * A proof holds the blinder r·Y_k, the shared secret K(r·Y_k) and the amount a. The member k it names has
 * C_k = a·G + blinder. That alone proves nothing — anyone can take C_k − a′·G as a blinder for any a′ — so the
 * member's payload must also open under K(shared ‖ Y_k) to a well-formed plaintext (a sender index of the other
 * parity, then arguments or zeros), which needs the true r·Y_k: only the sender and the receiver can make a proof
 * that passes.
 */
import type { Core } from '../core-native/ts/core.js';
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { openPayload } from '../core-native/ts/payload-cipher.js';
import { payloadKey } from '../core-native/ts/shared-secret.js';
import { AddressError, decodePaymentProof, encodeAddress, type PaymentProof } from './address.js';
import { equalBytes, toHex } from './bytes.js';
import { describeAmount } from './coin-amount.js';
import { NETWORKS, type NetworkName } from './network.js';
import { PaymentProofError, PaymentProofErrorCode } from './payment-proof-errors.js';
import { decodeRpcArguments, type RpcArgument } from './rpc-arguments.js';
import { NATIVE_SCID } from './transfer-checks.js';
import {
  encodeTransactionHeader,
  TxType,
  type AssetPayload,
  type Transaction,
  type TransferTx,
} from './transaction.js';

export { PaymentProofError, PaymentProofErrorCode } from './payment-proof-errors.js';

/** What a proof that fits shows. */
export interface PaymentProofFit {
  /** The payload paid: its index in the transaction. */
  payload: number;
  /** The payload's asset, 64 hex digits (zeros: the native coin). */
  asset: string;
  /** The receiver's index in the payload's ring, and the ring's size. */
  ringIndex: number;
  ringSize: number;
  /** The receiver, as an address of the network. */
  receiver: string;
  /** Atomic units of the asset the receiver got. */
  amount: bigint;
  /** The arguments the sender put in the receiver's payload (a comment, ports, …). */
  args: RpcArgument[];
}

/** What is checked: the transaction the txid names, and the proof as it was given (text). */
export interface PaymentProofClaim {
  txid: Uint8Array;
  tx: Transaction;
  proof: string;
}

const KIND: Record<TxType, string> = {
  [TxType.Premine]: 'the premine',
  [TxType.Registration]: 'a registration',
  [TxType.Coinbase]: 'a coinbase (a block reward)',
  [TxType.Normal]: 'a transfer',
  [TxType.SmartContract]: 'a contract transaction',
};

function fail(code: PaymentProofErrorCode, message: string): never {
  throw new PaymentProofError(code, message);
}

/** The proof's parts, read and checked to belong together. */
function readProof(core: Core, text: string): PaymentProof & { blinderPoint: Uint8Array } {
  let proof: PaymentProof;
  try {
    proof = decodePaymentProof(text.trim());
  } catch (error) {
    if (error instanceof AddressError)
      throw new PaymentProofError(PaymentProofErrorCode.Unreadable, error.message, { cause: error });
    throw error;
  }
  let blinderPoint: Uint8Array;
  try {
    blinderPoint = core.g1Decompress(proof.blinder);
  } catch {
    fail(PaymentProofErrorCode.Altered, 'the proof was altered: its blinder is not a point of the curve');
  }
  if (!equalBytes(core.keccak256(proof.blinder), proof.shared))
    fail(PaymentProofErrorCode.Altered, 'the proof was altered: its shared secret is not the one its blinder gives');
  return { ...proof, blinderPoint };
}

/** The arguments of member k's payload opened with the proof's shared secret; undefined when it does not open. */
function openedArguments(core: Core, payload: AssetPayload, k: number, shared: Uint8Array): RpcArgument[] | undefined {
  const receiver = core.g1Decompress(payload.statement.ring[k]!);
  const plain = openPayload(core, payloadKey(core, shared, receiver), payload.rpcPayload);
  if (plain.senderIndex >= payload.statement.ring.length || plain.senderIndex % 2 === k % 2) return undefined;
  if (plain.args.every((byte) => byte === 0)) return [];
  try {
    return decodeRpcArguments(plain.args);
  } catch {
    return undefined;
  }
}

/** A ring member for people: its address, and where it is (counted from 1, as the explorer lists them). */
function memberName(network: NetworkName, tx: TransferTx, p: number, k: number): string {
  const ring = tx.payloads[p]!.statement.ring;
  const payload = tx.payloads.length > 1 ? ` of payload ${p + 1}` : '';
  return `${encodeAddress(network, ring[k]!)} (ring member ${k + 1} of ${ring.length}${payload})`;
}

const amountIn = (payload: AssetPayload, amount: bigint): string =>
  equalBytes(payload.scid, NATIVE_SCID) ? describeAmount(amount) : `${amount} units of token ${toHex(payload.scid)}`;

/**
 * The payment `claim.proof` shows in `claim.tx`; a PaymentProofError says why it shows none. `network` names the
 * generators and the receiver's address.
 */
export function checkPaymentProof(core: Core, network: NetworkName, claim: PaymentProofClaim): PaymentProofFit {
  const txid = toHex(claim.txid);
  const proof = readProof(core, claim.proof);
  const actual = toHex(core.keccak256(encodeTransactionHeader(claim.tx)));
  if (actual !== txid)
    fail(PaymentProofErrorCode.WrongTransaction, `the transaction checked is ${actual}, not ${txid}`);
  const { tx } = claim;
  if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract)
    fail(
      PaymentProofErrorCode.NotATransfer,
      `transaction ${txid} is ${KIND[tx.type]}, not a transfer: it holds no payment a proof could show`,
    );
  const { G } = core.generators(NETWORKS[network].generatorDomain);
  const paid = core.g1Add(core.g1Mul(G, bigintToBytes32BE(proof.amount)), proof.blinderPoint);
  // a·G + blinder at infinity is no compressed C_k: nothing fits the amount.
  const expected = paid.every((byte) => byte === 0) ? undefined : core.g1Compress(paid);
  let forged: { payload: number; member: number } | undefined;
  for (const [p, payload] of tx.payloads.entries()) {
    const { ring, C } = payload.statement;
    for (let k = 0; k < ring.length; k++) {
      if (!expected || !equalBytes(C[k]!, expected)) continue;
      const args = openedArguments(core, payload, k, proof.shared);
      if (!args) {
        forged ??= { payload: p, member: k };
        continue;
      }
      return {
        payload: p,
        asset: toHex(payload.scid),
        ringIndex: k,
        ringSize: ring.length,
        receiver: encodeAddress(network, ring[k]!),
        amount: proof.amount,
        args,
      };
    }
  }
  for (const [p, payload] of tx.payloads.entries())
    for (let k = 0; k < payload.statement.ring.length; k++)
      if (openedArguments(core, payload, k, proof.shared))
        fail(
          PaymentProofErrorCode.WrongAmount,
          `the proof opens the payload of ${memberName(network, tx, p, k)}, but that member did not receive ${amountIn(payload, proof.amount)}: the proof's amount was altered`,
        );
  if (forged)
    fail(
      PaymentProofErrorCode.Forged,
      `the ciphertext of ${memberName(network, tx, forged.payload, forged.member)} fits the proof's amount and blinder, but its shared secret does not open that member's payload: the proof is forged (anyone can compute such a blinder from the transaction)`,
    );
  return fail(
    PaymentProofErrorCode.OtherTransaction,
    `no member of the ${tx.payloads.length === 1 ? 'ring' : `${tx.payloads.length} rings`} of transaction ${txid} received the payment this proof shows: it was made for another transaction`,
  );
}
