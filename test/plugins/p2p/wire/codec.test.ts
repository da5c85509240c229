/** Messages round-trip through CBOR; malformed or mis-shaped bodies are refused with the field named. */
import t from 'tap';
import { Encoder } from 'cbor-x';
import { decodeBlockBody, decodeMessage, encodeBlockBody, encodeMessage } from '../../../../plugins/p2p/wire/codec.js';
import { FrameDecoder, encodeFrame } from '../../../../plugins/p2p/wire/frame.js';
import { MAX_TX_BYTES } from '../../../../protocol/transaction.js';
import { frameLimitOf, MESSAGES } from '../../../../plugins/p2p/wire/messages.js';

const roundTrip = (frame: Uint8Array) => decodeMessage(new FrameDecoder(frameLimitOf).push(frame)[0]!);
const id = (fill: number) => new Uint8Array(32).fill(fill);

t.test('every message kind round-trips', async (t) => {
  const hello = {
    version: 1,
    network: 'testnet',
    genesis: id(1),
    height: 7,
    work: 2n ** 80n + 3n,
    top: id(2),
    nodeId: new Uint8Array(16).fill(3),
    port: 40401,
  };
  const back = roundTrip(encodeMessage('hello', hello));
  t.equal(back.type, 'hello');
  t.same(back.body, hello, 'bignum work and byte strings survive');
  t.same(
    roundTrip(encodeMessage('newBlock', { id: id(4), height: 3, work: 12n })).body,
    { id: id(4), height: 3, work: 12n },
    'small work comes back as a bigint too',
  );
  const blocks = roundTrip(
    encodeMessage('blocks', { request: 9, blocks: [{ block: Buffer.from('abc'), txs: [Buffer.from('t')] }] }),
  );
  t.same(blocks.type === 'blocks' && blocks.body.blocks[0]!.txs.length, 1);
  t.same(roundTrip(encodeMessage('getPeers', {})), { type: 'getPeers', body: {} });
  t.same(roundTrip(encodeMessage('peers', { addresses: ['127.0.0.1:1'] })).body, { addresses: ['127.0.0.1:1'] });
});

t.test('malformed bodies are protocol errors naming the field', async (t) => {
  const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
  const frame = (kind: number, value: unknown) => encodeFrame(kind, cbor.encode(value));
  t.throws(() => roundTrip(encodeFrame(MESSAGES.ping.kind, Buffer.from([0xff, 0x00]))), {
    name: 'ProtocolError',
    message: /ping is not valid CBOR/,
  });
  t.throws(() => roundTrip(encodeFrame(MESSAGES.ping.kind, new Uint8Array(0))), { name: 'ProtocolError' });
  t.throws(() => roundTrip(frame(MESSAGES.ping.kind, [1, 2])), /ping must be a map/);
  t.throws(() => roundTrip(frame(MESSAGES.ping.kind, { nonce: -1 })), /ping\.nonce must be a non-negative integer/);
  t.throws(
    () => roundTrip(frame(MESSAGES.newBlock.kind, { id: Buffer.alloc(31), height: 1, work: 1 })),
    /newBlock\.id must be 32 bytes/,
  );
  t.throws(
    () => roundTrip(frame(MESSAGES.getBlocks.kind, { request: 1, ids: Array(129).fill(Buffer.alloc(32)) })),
    /getBlocks\.ids must be an array of at most 128 items/,
  );
  t.throws(() => roundTrip(frame(MESSAGES.goodbye.kind, { reason: 5 })), /goodbye\.reason must be text/);
  t.same(
    roundTrip(frame(MESSAGES.ping.kind, { nonce: 1, later: 'field' })).body,
    { nonce: 1 },
    'unknown fields are ignored (a later version may add some)',
  );
});

t.test('stemTx carries one transaction: its body and its frame are capped at one transaction', async (t) => {
  const tx = new Uint8Array(MAX_TX_BYTES).fill(7);
  const back = roundTrip(encodeMessage('stemTx', { tx }));
  t.ok(back.type === 'stemTx' && Buffer.from(tx).equals(back.body.tx), 'the largest transaction fits');
  t.throws(
    () => roundTrip(encodeMessage('stemTx', { tx: new Uint8Array(MAX_TX_BYTES + 1) })),
    /stemTx\.tx must be at most 307200 bytes/,
  );
  const header = Buffer.alloc(5);
  header.writeUInt32BE(MAX_TX_BYTES + 4096, 0);
  header.writeUInt8(MESSAGES.stemTx.kind, 4);
  t.throws(() => new FrameDecoder(frameLimitOf).push(header), {
    name: 'FrameError',
    message: /exceeds the \d+-byte limit of message kind 16/,
  });
});

t.test('a blocks topic message is one blocks entry; anything else is a protocol error', async (t) => {
  const body = { block: new Uint8Array([1, 2, 3]), txs: [new Uint8Array([4]), new Uint8Array([5, 6])] };
  t.same(decodeBlockBody(encodeBlockBody(body)), body);
  t.throws(() => decodeBlockBody(new Uint8Array([0xff, 0xff])), /gossiped block is not valid CBOR/);
  const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
  t.throws(() => decodeBlockBody(cbor.encode({ block: 'text', txs: [] })), /gossiped block\.block/);
});
