import { sha3_256 } from '@noble/hashes/sha3.js';
import t from 'tap';
import { decodeBlock, encodeBlock, type Block } from '../../protocol/block.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import { decodeMiniblock, encodeMiniblock, pastOf, type Miniblock } from '../../protocol/miniblock.js';
import { coinbaseTx } from '../../protocol/transaction.js';
import { loadVectors } from '../helpers/vectors.js';

const vectors = loadVectors('protocol-vectors.json');

const miniblock = (i: number, final = false): Miniblock => ({
  version: 1,
  highDiff: final,
  final,
  pastCount: 1,
  timestamp: 0xbeef,
  height: 0x12_3456_789an,
  past: [0xdeadbeef, 0],
  keyHash: new Uint8Array(16).fill(i),
  flags: 0xffffffff,
  nonce: [i, 2 ** 32 - 1, 7],
});

t.test('the genesis layout reproduces the reference genesis id with a zero state root', async (t) => {
  const block = decodeBlock(fromHex(vectors.genesisBlock.hex));
  t.equal(block.height, 0n);
  t.equal(block.tips.length, 0);
  t.equal(toHex(encodeBlock(block)), vectors.genesisBlock.hex);
  t.equal(toHex(sha3_256(encodeBlock(block))), vectors.genesisBlock.id);
});

t.test('miniblocks: 48 bytes, every field round trips', async (t) => {
  const mb = miniblock(5, true);
  const bytes = encodeMiniblock(mb);
  t.equal(bytes.length, 48);
  t.same(decodeMiniblock(bytes), mb);
  t.equal(bytes[0], 0x01 | 0x10 | 0x20 | 0x40);
  t.throws(() => decodeMiniblock(bytes.slice(1)), { message: /must be 48 bytes/ });
  const badVersion = Uint8Array.from(bytes);
  badVersion[0] = (badVersion[0]! & 0xf0) | 2;
  t.throws(() => decodeMiniblock(badVersion), { message: /unsupported version 2/ });
  const twoTips = Uint8Array.from(bytes);
  twoTips[0] = (twoTips[0]! & 0x3f) | 0x80;
  t.throws(() => decodeMiniblock(twoTips), { message: /past count 2/ });
  t.equal(pastOf(fromHex('deadbeef' + '00'.repeat(28))), 0xdeadbeef);
});

t.test('blocks round trip; the final miniblock commits to the block without itself', async (t) => {
  const block: Block = {
    majorVersion: 1,
    minorVersion: 1,
    timestamp: 1_700_000_000_123n,
    height: 42n,
    minerTx: coinbaseTx(new Uint8Array(33).fill(2)),
    stateRoot: new Uint8Array(32).fill(0xab),
    tips: [new Uint8Array(32).fill(1)],
    miniblocks: Array.from({ length: 10 }, (_, i) => miniblock(i, i === 9)),
    txHashes: [new Uint8Array(32).fill(3), new Uint8Array(32).fill(4)],
  };
  const bytes = encodeBlock(block);
  t.same(decodeBlock(bytes), block);
  const withoutFinal = encodeBlock(block, 9);
  t.equal(bytes.length - withoutFinal.length, 48, 'nine miniblocks: one fewer');
  t.throws(() => decodeBlock(new Uint8Array([...bytes, 1])), { message: /trailing/ });
  t.throws(() => decodeBlock(bytes.slice(0, 20)), { name: 'DecodeError' });
  const twoTips = encodeBlock({ ...block, tips: [block.tips[0]!, block.tips[0]!] });
  t.throws(() => decodeBlock(twoTips), { message: /tip count 2 exceeds the limit of 1/ });
  const normalMinerTx = Uint8Array.from(bytes);
  normalMinerTx[14] = 3;
  t.throws(() => decodeBlock(normalMinerTx), { message: /miner tx must be COINBASE or PREMINE/ });
});
