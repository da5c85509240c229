/**
 * NODE.GetStateProof and NODE.GetRangeHistory through a real daemon: answers checked against the state roots of the
 * blocks (read from their bytes, as a client that verified the headers holds them) agree with GetEncryptedBalance and
 * GetBalanceChanges; bad params are refused naming the field.
 */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { decodeBlock } from '../../../../protocol/block.js';
import { fromHex, toHex } from '../../../../protocol/bytes.js';
import { premineKey } from '../../../../protocol/premine.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { WHOLE_TRIE, type KeyRange } from '../../../../protocol/state/range-check.js';
import { verifyRangeHistory } from '../../../../protocol/state/range-history.js';
import { keyRange, provenValue, verifyStateProof } from '../../../../protocol/state/state-proof.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { MAX_HISTORY_CHANGES, MAX_PROOF_LEAVES } from '../../../../plugins/consensus/rpc/proof-methods.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';

const BALANCES = `42${'00'.repeat(32)}`;

t.test('proven reads', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const core = await loadCore();
  const { G } = core.generators('UMBRA');
  const premineKeyBytes = premineKey(core, 'simulator');
  const premine = encodeAddress('simulator', premineKeyBytes);
  const secret = core.keccak256(new TextEncoder().encode('proof methods: the other miner'));
  const other = encodeAddress('simulator', core.g1Compress(core.g1MulSecret(G, secret)));
  await rpcCall(url, 'NODE.SendRawTransaction', {
    tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, secret, 0))),
  });
  // The premine's balance changes in the blocks it mines (1, 4, 6), not in the other miner's.
  for (const miner of [premine, other, other, premine, other, premine, other]) await mineOneViaRpc(url, miner);
  const top = BigInt((await rpcCall(url, 'NODE.GetInfo')).topoheight);
  const stateRoots = new Map<bigint, Uint8Array>();
  for (let height = 0n; height <= top; height++)
    stateRoots.set(
      height,
      decodeBlock(fromHex((await rpcCall(url, 'NODE.GetBlock', { height: Number(height) })).blob)).stateRoot,
    );
  let id = 0;
  const call = async (method: string, params: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: ++id, method, params })).json;
  const rangeParams = (range: KeyRange) => ({ trie: BALANCES, bits: range.bits, prefix: toHex(range.prefix) });

  await t.test('NODE.GetStateProof proves what GetEncryptedBalance reads', async (t) => {
    const range = keyRange(core, premineKeyBytes);
    for (let topoheight = 0n; topoheight <= top; topoheight++) {
      const answer = (await call('NODE.GetStateProof', { ...rangeParams(range), topoheight: Number(topoheight) }))
        .result;
      t.match(answer, { topoheight: Number(topoheight), treehash: toHex(stateRoots.get(topoheight)!), status: 'OK' });
      const proven = verifyStateProof(core, stateRoots.get(topoheight)!, fromHex(BALANCES), range, answer);
      const read = await rpcCall(url, 'NODE.GetEncryptedBalance', { address: premine, topoheight: Number(topoheight) });
      t.equal(toHex(provenValue(core, proven, premineKeyBytes)!), read.data, `topoheight ${topoheight}`);
      t.equal(answer.blockhash, read.blockhash);
    }
    const latest = (await call('NODE.GetStateProof', rangeParams(WHOLE_TRIE))).result;
    t.equal(latest.topoheight, Number(top), 'the latest state when no topoheight is given');
    t.same(
      verifyStateProof(core, stateRoots.get(top)!, fromHex(BALANCES), WHOLE_TRIE, latest).leaves.length,
      2,
      'the whole balance trie: the premine and the other miner',
    );
    const split = (await call('NODE.GetStateProof', { ...rangeParams(WHOLE_TRIE), limit: 1 })).result;
    t.equal(split.chunk.split, true, 'more leaves than the limit: split');
  });

  await t.test('NODE.GetRangeHistory proves the changes GetBalanceChanges lists', async (t) => {
    const range = keyRange(core, premineKeyBytes);
    const listed = (await rpcCall(url, 'NODE.GetBalanceChanges', { address: premine, from_topoheight: 0 })).changes;
    const answer = (await call('NODE.GetRangeHistory', { ...rangeParams(range), from: 0 })).result;
    t.match(answer, { from: 0, to: Number(top), status: 'OK' });
    const proven = verifyRangeHistory(core, stateRoots, fromHex(BALANCES), range, { from: 0n, to: top }, answer);
    t.same(
      proven.changes.map((change) => Number(change.topoheight)),
      listed.map((change: { topoheight: number }) => change.topoheight),
    );
    t.same(
      proven.changes.map((change) => Number(change.topoheight)),
      [1, 4, 6],
    );
    const short = (await call('NODE.GetRangeHistory', { ...rangeParams(range), from: 0, to: 5, limit: 1 })).result;
    const first = verifyRangeHistory(core, stateRoots, fromHex(BALANCES), range, { from: 0n, to: 5n }, short);
    t.match(first, { to: 1n, complete: false }, 'a limit of one change: the answer ends at it');
  });

  await t.test('bad params: -32602 naming the field', async (t) => {
    const refused = async (method: string, params: unknown, message: RegExp | string) =>
      t.match((await call(method, params)).error, { code: -32602, message }, `${method} ${JSON.stringify(params)}`);
    const proof = (params: unknown, message: RegExp | string) => refused('NODE.GetStateProof', params, message);
    const history = (params: unknown, message: RegExp | string) => refused('NODE.GetRangeHistory', params, message);
    const whole = { trie: BALANCES, bits: 0 };
    await proof(
      { bits: 0 },
      "invalid params: 'trie' must be hexadecimal text of whole bytes, got nothing (the field is missing)",
    );
    await proof({ trie: 'xyz', bits: 0 }, /'trie' must be hexadecimal text of whole bytes/);
    await proof(
      { trie: '42', bits: 0 },
      /^invalid params: 'trie' must name a trie of the state: 42‖asset \(B: balances\), .*; got "42"$/,
    );
    await proof({ trie: BALANCES }, /'bits' must be a non-negative integer/);
    await proof({ ...whole, bits: 97 }, "invalid params: 'bits' must be 0 … 96, got 97");
    await proof(
      { ...whole, bits: 9, prefix: '00' },
      `invalid params: 'prefix' must be 2 bytes of hex for 9 bits, with no bit set past them; got "00"`,
    );
    await proof(
      { ...whole, bits: 1, prefix: '40' },
      /'prefix' must be 1 bytes of hex for 1 bits, with no bit set past/,
    );
    await proof({ ...whole, limit: 0 }, `invalid params: 'limit' must be 1 … ${MAX_PROOF_LEAVES}, got 0`);
    await proof({ ...whole, limit: MAX_PROOF_LEAVES + 1 }, /'limit' must be 1 …/);
    await proof(
      { ...whole, topoheight: Number(top) + 1 },
      `invalid params: 'topoheight' must be a topoheight on the chain (0 … ${top}, or -1 for the latest), got ${Number(top) + 1}`,
    );
    await proof({ ...whole, topoheight: -2 }, /'topoheight' must be a topoheight on the chain/);
    await proof([], /must be an object/);

    await history(whole, /'from' must be a non-negative integer/);
    await history({ ...whole, from: 5, to: 2 }, "invalid params: 'from' (5) must not be above 'to' (2)");
    await history(
      { ...whole, from: 0, to: Number(top) + 1 },
      /^invalid params: 'to' must be a topoheight on the chain/,
    );
    await history(
      { ...whole, from: Number(top) + 1 },
      `invalid params: 'from' (${Number(top) + 1}) must not be above 'to' (${top})`,
    );
    await history(
      { ...whole, from: 0, limit: MAX_HISTORY_CHANGES + 1 },
      `invalid params: 'limit' must be 1 … ${MAX_HISTORY_CHANGES}, got ${MAX_HISTORY_CHANGES + 1}`,
    );
    await history({ ...whole, trie: '4d', from: 0 }, /^invalid params: 'trie' must name a balance trie \(42‖asset\)/);
    await history({ ...whole, bits: 3, prefix: '', from: 0 }, /'prefix' must be 1 bytes of hex for 3 bits/);
  });
});

t.test('a pruned node answers state it no longer holds with -32098', async (t) => {
  const { url } = await startTestApp(t, {
    network: 'simulator',
    plugins: ['dvm', 'consensus', 'mempool', 'mining', 'simulator'],
    automine: false,
    pruneDepth: 11,
  });
  await rpcCall(url, 'SIMULATOR.Mine', { count: 40 });
  const whole = { trie: BALANCES, bits: 0 };
  const refusal = async (method: string, params: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: 1, method, params })).json.error;
  // Pruning runs in the background after the blocks.
  while (!(await refusal('NODE.GetStateProof', { ...whole, topoheight: 1 })))
    await new Promise((resolve) => setTimeout(resolve, 20));
  for (const [method, params] of [
    ['NODE.GetStateProof', { ...whole, topoheight: 1 }],
    ['NODE.GetRangeHistory', { ...whole, from: 1 }],
  ] as const)
    t.match(
      await refusal(method, params),
      { code: -32098, message: /^topoheight 1 is not held: this node keeps the state from topoheight \d+ on/ },
      method,
    );
});
