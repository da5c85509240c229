/**
 * Private, proven reads on a real simulator chain with more accounts than K (K = 4, 20 accounts): what they read
 * agrees with the daemon's own answers; no request the wallet sends names its address, key, key hash or a prefix of
 * it narrower than its privacy range; and every lie of the daemon is refused, naming it, with nothing kept.
 */
import t, { type Test } from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { inRange } from '../../../protocol/state/range-check.js';
import { trieName } from '../../../protocol/state/trie-names.js';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { privacyRangeFromJson, privacyRangeToJson } from '../../../wallet/private-reads/privacy-range.js';
import { NATIVE_ASSET, ProvenState } from '../../../wallet/private-reads/proven-state.js';
import { rangeChanges } from '../../../wallet/private-reads/range-changes.js';
import { readVerifiedBlocks } from '../../../wallet/private-reads/verified-block.js';
import { WalletErrorCode } from '../../../wallet/wallet-error.js';
import { rpcCall } from '../../helpers/app.js';
import { ACCOUNTS, openPrivateReadsChain } from '../../helpers/private-reads-chain.js';
import { leaks } from '../../helpers/privacy-leaks.js';
import type { ProxiedCall } from '../../helpers/recording-proxy.js';

const K = 4;
const chain = await openPrivateReadsChain(t);
const { core, client, light, keys, proxy } = chain;
const [wallet] = keys as [Uint8Array];
const top = light.top!.height;
const walletKeyhash = core.blake2s256(wallet);
const newState = () => new ProvenState({ hashes: core, roots: light, client, publicKey: wallet, k: K });
const daemonBalance = async (key: Uint8Array, topoheight: bigint) =>
  (
    await rpcCall(chain.daemonUrl, 'NODE.GetEncryptedBalance', {
      address: chain.address(key),
      topoheight: Number(topoheight),
    })
  ).data as string;

t.test('the reads tell the daemon nothing narrower than the privacy range, and read what it holds', async (t) => {
  proxy.bodies.length = 0;
  const state = newState();
  const balance = await state.ownBalance(NATIVE_ASSET, top);
  t.equal(toHex(balance!), await daemonBalance(wallet, top), "the wallet's own balance");
  t.equal(await state.isRegistered(top), true, 'registered');
  t.equal(await state.isRegistered(0n), false, 'not registered at genesis');
  const range = state.ranges.get(toHex(NATIVE_ASSET))!;
  t.ok(range.bits > 0, `the walk went below the whole trie (${range.bits} bits)`);
  const members = await state.reader.readWhole({ trie: trieName('B', NATIVE_ASSET), range, what: 'range' }, top);
  t.ok(members.length >= K, `the range holds ${members.length} ≥ K accounts`);
  t.ok(members.length < ACCOUNTS, 'and not every account');

  const ring = keys.slice(0, 8); // the wallet's own key among them, read as the others are
  const ringBalances = await state.ringBalances(NATIVE_ASSET, ring, top);
  t.same(
    ringBalances.map((value) => toHex(value!)),
    await Promise.all(ring.map((key) => daemonBalance(key, top))),
  );
  t.equal(((await state.contractVariable(NAME_SERVICE_SCID, 0n, top)) as string).length, 33, 'the privileged key');
  t.equal(await state.nameOwner('nobody', top), undefined, 'a free name');
  t.equal(await state.contractBalance(NAME_SERVICE_SCID, NATIVE_ASSET, top), 0n);

  const changes = await rangeChanges(client, core, light, { asset: NATIVE_ASSET, range, from: 0n, to: top });
  const contents: string[] = [];
  for (let topoheight = 0n; topoheight <= top; topoheight++)
    contents.push(
      JSON.stringify(
        await state.reader.readWhole({ trie: trieName('B', NATIVE_ASSET), range, what: 'range' }, topoheight),
      ),
    );
  const expected = contents.flatMap((content, i) => (i > 0 && content !== contents[i - 1] ? [BigInt(i)] : []));
  t.same(changes, expected, `the range changed at ${expected.join(', ')}`);
  t.ok(changes.includes(3n) && changes.includes(6n), 'the blocks the wallet mined among them');

  const [block] = await readVerifiedBlocks(client, core, light, [1n]);
  t.equal(block!.transactions.length, ACCOUNTS, "the registrations' block, whole");

  t.ok(proxy.bodies.length > 0, 'the reads went through the proxy');
  const identity = { address: chain.address(wallet), publicKey: wallet, keyhash: walletKeyhash };
  for (const body of proxy.bodies) t.same(leaks(body, identity, range), [], `request ${body.slice(0, 60)}…`);
});

t.test('the privacy range: the whole trie while fewer than K are registered; kept and reused', async (t) => {
  const few = new ProvenState({ hashes: core, roots: light, client, publicKey: wallet, k: ACCOUNTS + 2 });
  t.equal((await few.rangeOf(NATIVE_ASSET, top)).bits, 0, 'fewer accounts than K: the whole trie');
  const found = await newState().rangeOf(NATIVE_ASSET, top);
  const stored = JSON.parse(JSON.stringify(privacyRangeToJson(found)));
  t.same(privacyRangeFromJson(stored, walletKeyhash), found, 'a stored range reads back');
  const other = core.blake2s256(keys.find((key) => !inRange(core.blake2s256(key), found))!);
  t.equal(
    privacyRangeFromJson(stored, other),
    undefined,
    "a range that does not hold the key hash is not the wallet's",
  );
  t.equal(privacyRangeFromJson({ bits: 3, prefix: 'ff' }, walletKeyhash), undefined, 'a malformed range');
  proxy.bodies.length = 0;
  const reused = newState();
  reused.ranges.set(toHex(NATIVE_ASSET), found);
  await reused.ownBalance(NATIVE_ASSET, top);
  t.equal(proxy.bodies.length, 1, 'a kept range is read in one call, without walking down again');
});

/** Reads with `lie` told, expecting the proof refused naming the daemon; the proxy is honest again after. */
async function refused(t: Test, lie: typeof proxy.lie, read: () => Promise<unknown>, why: RegExp) {
  proxy.lie = lie;
  try {
    const error = (await read().then(
      () => new Error('the lie was believed'),
      (e: unknown) => e,
    )) as Error;
    t.ok(UmbraError.is(error, WalletErrorCode.ProofRefused), `refused: ${error.message}`);
    t.match(error.message, proxy.url, 'naming the daemon');
    t.match(error.message, why);
  } finally {
    proxy.lie = undefined;
  }
}

/** A state-proof answer with the value of `key`'s leaf changed in its last byte. */
function alteredLeaf(key: Uint8Array) {
  return (call: ProxiedCall, result: any) => {
    const leaf = call.method === 'NODE.GetStateProof' && result.chunk?.leaves.find((l: any) => l.key === toHex(key));
    if (!leaf) return undefined;
    leaf.value = leaf.value.slice(0, -2) + (leaf.value.endsWith('00') ? '01' : '00');
    return result;
  };
}

t.test('lies are refused, naming the daemon', async (t) => {
  await t.test("a changed ciphertext of the wallet's own balance", async (t) => {
    const state = newState();
    await state.rangeOf(NATIVE_ASSET, top);
    await refused(t, { answer: alteredLeaf(wallet) }, () => state.ownBalance(NATIVE_ASSET, top), /leaves/);
    t.equal(toHex((await state.ownBalance(NATIVE_ASSET, top))!), await daemonBalance(wallet, top), 'nothing kept');
  });

  await t.test("a changed ring member's balance", async (t) => {
    const ring = keys.slice(0, 8);
    await refused(
      t,
      { answer: alteredLeaf(keys[5]!) },
      () => newState().ringBalances(NATIVE_ASSET, ring, top),
      /leaves/,
    );
  });

  await t.test('a transaction dropped from a block', async (t) => {
    const drop = (call: ProxiedCall, result: any) =>
      call.method === 'NODE.GetTransaction' ? { ...result, txs: result.txs.slice(1) } : undefined;
    await refused(t, { answer: drop }, () => readVerifiedBlocks(client, core, light, [1n]), /names 20 transactions/);
  });

  await t.test("a change of the wallet's range left out of its history", async (t) => {
    const state = newState();
    const range = await state.rangeOf(NATIVE_ASSET, top);
    const leaveOut = (call: ProxiedCall, result: any) =>
      call.method === 'NODE.GetRangeHistory'
        ? { ...result, points: result.points.filter((p: any) => p.topoheight !== 5 && p.topoheight !== 6) }
        : undefined;
    const history = () => rangeChanges(client, core, light, { asset: NATIVE_ASSET, range, from: 0n, to: top });
    await refused(t, { answer: leaveOut }, history, /left out/);
  });

  await t.test("an older state's proof served as the current one", async (t) => {
    const older = (call: ProxiedCall) =>
      call.method === 'NODE.GetStateProof' ? { ...call.params, topoheight: call.params.topoheight - 1 } : undefined;
    await refused(t, { request: older }, () => newState().ownBalance(NATIVE_ASSET, top), /not the verified/);
  });
});
