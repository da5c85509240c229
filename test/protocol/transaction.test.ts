import { keccak_256 } from '@noble/hashes/sha3.js';
import t from 'tap';
import { fromHex, toHex } from '../../protocol/bytes.js';
import {
  decodeTransaction,
  encodeTransaction,
  encodeTransactionHeader,
  MAX_TX_BYTES,
  proofSize,
  TxType,
  type TransferTx,
} from '../../protocol/transaction.js';
import { loadVectors } from '../helpers/vectors.js';

const vectors = loadVectors('protocol-vectors.json');

t.test('registration and premine vectors decode, re-encode byte for byte, and give the published txids', async (t) => {
  const reg = decodeTransaction(fromHex(vectors.registrationTx.hex));
  t.equal(reg.type, TxType.Registration);
  if (reg.type !== TxType.Registration) return;
  t.equal(toHex(reg.key), vectors.registrationTx.key);
  t.equal(toHex(reg.c), vectors.registrationTx.c);
  t.equal(toHex(reg.s), vectors.registrationTx.s);
  t.equal(toHex(encodeTransaction(reg)), vectors.registrationTx.hex);
  t.equal(toHex(keccak_256(encodeTransactionHeader(reg))), vectors.registrationTx.txid);

  const premine = decodeTransaction(fromHex(vectors.premineTx.hex));
  t.equal(premine.type, TxType.Premine);
  if (premine.type !== TxType.Premine) return;
  t.equal(premine.value, BigInt(vectors.premineTx.value));
  t.equal(toHex(encodeTransaction(premine)), vectors.premineTx.hex);
  t.equal(toHex(keccak_256(encodeTransactionHeader(premine))), vectors.premineTx.txid);
});

function sampleTransfer(ringLog2: number, type: TxType.Normal | TxType.SmartContract = TxType.Normal): TransferTx {
  const n = 1 << ringLog2;
  const point = (seed: number) => new Uint8Array(33).fill(seed);
  return {
    version: 1,
    sourceNetwork: 0,
    destNetwork: 0,
    type,
    height: 81n,
    blid: new Uint8Array(32).fill(9),
    payloads: [
      {
        scid: new Uint8Array(32),
        burn: 5n,
        rpcType: 0,
        rpcPayload: new Uint8Array(145).fill(3),
        statement: {
          ringLog2,
          fees: 600n,
          D: point(1),
          ring: Array.from({ length: n }, (_, i) => point(10 + i)),
          C: Array.from({ length: n }, (_, i) => point(200 - i)),
          roothash: new Uint8Array(32).fill(0x11),
        },
        proof: new Uint8Array(proofSize(ringLog2)).fill(7),
      },
    ],
    scData: type === TxType.SmartContract ? new Uint8Array([0xa1, 0x61, 0x41, 0x01]) : new Uint8Array(0),
  };
}

t.test('transfers round trip for every ring size; the txid excludes the proofs', async (t) => {
  for (let m = 1; m <= 7; m++) {
    for (const type of [TxType.Normal, TxType.SmartContract] as const) {
      const tx = sampleTransfer(m, type);
      const bytes = encodeTransaction(tx);
      t.same(decodeTransaction(bytes), tx, `ring ${1 << m} type ${type}`);
      t.equal(bytes.length - encodeTransactionHeader(tx).length, proofSize(m), 'header + proof');
    }
  }
  t.equal(proofSize(4), 2325, 'proof size for ring 16 (reference §1.8.3)');
  const bytes = encodeTransaction(sampleTransfer(4));
  const decoded = decodeTransaction(bytes);
  if (decoded.type !== TxType.Normal) throw new Error('a NORMAL transfer decodes as one');
  const [{ statement, proof, scid }] = decoded.payloads as [(typeof decoded.payloads)[number]];
  t.ok(
    [...statement.ring, ...statement.C, statement.D, statement.roothash, proof, scid, decoded.blid].every(
      (field) => field.buffer === bytes.buffer,
    ),
    'the byte fields are views of the bytes decoded, not copies',
  );
});

t.test('malformed transactions are rejected with clear errors', async (t) => {
  const good = encodeTransaction(sampleTransfer(2));
  const withTrailing = new Uint8Array([...good, 0]);
  t.throws(() => decodeTransaction(withTrailing), { name: 'DecodeError', message: /1 unexpected trailing bytes/ });
  t.throws(() => decodeTransaction(good.slice(0, good.length - 1)), { message: /truncated payload 0 proof/ });
  const ringStart = encodeTransactionHeader(sampleTransfer(2)).length - (32 + 4 * 33 + 4 * 33);
  t.throws(() => decodeTransaction(good.slice(0, ringStart + 33)), {
    message: /truncated payload 0 ring keys: needs 132 bytes, 33 left/,
  });
  const badVersion = Uint8Array.from(good);
  badVersion[0] = 2;
  t.throws(() => decodeTransaction(badVersion), { message: /unsupported version 2/ });
  t.throws(() => decodeTransaction(fromHex('01000004')), { message: /unknown transaction type 4/ });
  t.throws(() => decodeTransaction(fromHex('01010001')), { message: /source network 1 exceeds the limit of 0/ });
  const ringIndex = encodeTransactionHeader(sampleTransfer(2)).length - (32 + 4 * 33 + 4 * 33 + 33 + 2 + 1);
  const badRing = Uint8Array.from(good);
  t.equal(badRing[ringIndex], 2, 'found the ring size byte');
  badRing[ringIndex] = 8;
  t.throws(() => decodeTransaction(badRing), { message: /ring size 2\^8 is not a power of two between 2 and 128/ });
  badRing[ringIndex] = 0;
  t.throws(() => decodeTransaction(badRing), { message: /ring size 2\^0/ });
  t.throws(() => decodeTransaction(new Uint8Array(MAX_TX_BYTES + 1)), { message: /exceeds the limit/ });
  const noPayloads = encodeTransaction({ ...sampleTransfer(1), payloads: [] });
  t.throws(() => decodeTransaction(noPayloads), { message: /at least one payload/ });
  t.throws(
    () =>
      encodeTransaction({
        ...sampleTransfer(2),
        payloads: [
          { ...sampleTransfer(2).payloads[0]!, statement: { ...sampleTransfer(2).payloads[0]!.statement, ring: [] } },
        ],
      }),
    RangeError,
  );
});
