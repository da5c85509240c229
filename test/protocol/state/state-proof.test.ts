/** verifyStateProof on the daemon's answers over a real chain: honest ones prove the state's leaves, tampered ones are refused. */
import t from 'tap';
import { encodeNonceBalance } from '../../../protocol/nonce-balance.js';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { stateProofToJson } from '../../../protocol/state/proof-answers.js';
import { halvesOf, RangeProofError, WHOLE_TRIE, type KeyRange } from '../../../protocol/state/range-check.js';
import { StateProofError, StateProofErrorCode } from '../../../protocol/state/state-proof-error.js';
import { keyRange, provenValue, verifyStateProof, type ProvenRange } from '../../../protocol/state/state-proof.js';
import { emptyTrieRoot } from '../../../protocol/state/trie-root-proof.js';
import { nilHash } from '../../../protocol/state/trie-node.js';
import { stateProof } from '../../../plugins/consensus/rpc/proof-methods.js';
import { NATIVE_BALANCES, openProvenReadsChain, rangeContent, rangeHolding } from '../../helpers/proven-reads.js';

const chain = await openProvenReadsChain();
const { core } = chain.test;
const top = chain.test.chain.top.height;
const CODE_TRIE = Uint8Array.of(0x4d);

/** The daemon's answer as a client receives it (JSON). */
function answer(trie: Uint8Array, range: KeyRange, topoheight: bigint, limit = 1024): any {
  const params = {
    trie: toHex(trie),
    bits: range.bits,
    prefix: toHex(range.prefix),
    topoheight: Number(topoheight),
    limit,
  };
  return JSON.parse(JSON.stringify(stateProofToJson(stateProof(chain.deps, params))));
}

const verify = (trie: Uint8Array, range: KeyRange, topoheight: bigint, json: unknown): ProvenRange =>
  verifyStateProof(core, chain.stateRoots.get(topoheight)!, trie, range, json);

const hexLeaves = (proven: ProvenRange) =>
  proven.leaves.map((leaf) => ({ key: toHex(leaf.key), value: toHex(leaf.value) }));

t.test('an honest answer proves exactly the range’s leaves at that state', async (t) => {
  for (const topoheight of [0n, 1n, 4n, top])
    for (const range of [WHOLE_TRIE, ...halvesOf(WHOLE_TRIE), rangeHolding(chain, chain.miner.key, 3)]) {
      const proven = verify(NATIVE_BALANCES, range, topoheight, answer(NATIVE_BALANCES, range, topoheight));
      t.same(
        hexLeaves(proven),
        rangeContent(chain, NATIVE_BALANCES, range, topoheight),
        `${range.bits} bits at topoheight ${topoheight}`,
      );
      t.notOk(proven.split);
    }
});

t.test('a range too large for the limit is answered split, and its halves read it whole', async (t) => {
  const leaves: { key: string; value: string }[] = [];
  const queue: KeyRange[] = [WHOLE_TRIE];
  let splits = 0;
  while (queue.length > 0) {
    const range = queue.shift()!;
    const proven = verify(NATIVE_BALANCES, range, top, answer(NATIVE_BALANCES, range, top, 8));
    if (proven.split) splits++;
    queue.push(...proven.halves);
    leaves.push(...hexLeaves(proven));
  }
  t.ok(splits > 0, `${splits} splits`);
  t.same(
    leaves.map((leaf) => leaf.key).sort(),
    rangeContent(chain, NATIVE_BALANCES, WHOLE_TRIE, top)
      .map((leaf) => leaf.key)
      .sort(),
  );
});

t.test('a single key is read as the range of its key hash', async (t) => {
  const range = keyRange(core, chain.miner.key);
  const proven = verify(NATIVE_BALANCES, range, top, answer(NATIVE_BALANCES, range, top));
  const balance = chain.test.chain.stateAt().getBalance(new Uint8Array(32), chain.miner.key)!;
  t.same(toHex(provenValue(core, proven, chain.miner.key)!), toHex(encodeNonceBalance(balance)));

  const stranger = core.g1Compress(core.g1MulSecret(core.generators('UMBRA').G, core.keccak256(Uint8Array.of(7))));
  const absent = verify(
    NATIVE_BALANCES,
    keyRange(core, stranger),
    top,
    answer(NATIVE_BALANCES, keyRange(core, stranger), top),
  );
  t.equal(provenValue(core, absent, stranger), undefined, 'a key the state does not hold is proven absent');

  const code = verify(
    CODE_TRIE,
    keyRange(core, NAME_SERVICE_SCID),
    top,
    answer(CODE_TRIE, keyRange(core, NAME_SERVICE_SCID), top),
  );
  const source = provenValue(core, code, NAME_SERVICE_SCID)!;
  t.equal(source[0], 0, 'the name service is a public contract');
  t.match(new TextDecoder().decode(source.subarray(1)), /Name service/);

  t.throws(() => provenValue(core, proven, stranger), { code: StateProofErrorCode.KeyNotCovered });
  const split = verify(NATIVE_BALANCES, WHOLE_TRIE, top, answer(NATIVE_BALANCES, WHOLE_TRIE, top, 2));
  t.throws(() => provenValue(core, split, chain.miner.key), {
    code: StateProofErrorCode.KeyNotCovered,
    message: /split/,
  });
});

t.test('a trie the state does not hold is proven absent', async (t) => {
  const tokens = fromHex(`42${'ab'.repeat(32)}`);
  for (const range of [WHOLE_TRIE, rangeHolding(chain, chain.miner.key, 5)]) {
    const json = answer(tokens, range, top);
    t.equal(json.chunk, null);
    const proven = verify(tokens, range, top, json);
    t.same(proven.leaves, []);
    const hash = (data: Uint8Array) => core.blake2s256(data);
    t.same(proven.rangeHash, range.bits === 0 ? emptyTrieRoot(hash) : nilHash(hash));
  }
});

// Every bit of the last byte changes, so the value differs whatever byte the random chain left there.
const withLastByteFlipped = (hex: string) =>
  `${hex.slice(0, -2)}${(Number.parseInt(hex.slice(-2), 16) ^ 0xff).toString(16).padStart(2, '0')}`;

t.test('tampered answers are refused, saying what failed', async (t) => {
  const range = halvesOf(WHOLE_TRIE)[1];
  const honest = answer(NATIVE_BALANCES, range, top);
  const other = answer(NATIVE_BALANCES, halvesOf(WHOLE_TRIE)[0], top);
  t.ok(honest.chunk.leaves.length >= 3, 'a range with leaves to tamper with');
  const withLeaves = (leaves: unknown[]) => ({ ...honest, chunk: { ...honest.chunk, leaves } });
  const refused = (what: string, json: unknown, expected: { code: string; message: RegExp }, topoheight = top) => {
    t.throws(() => verify(NATIVE_BALANCES, range, topoheight, json), StateProofError, what);
    t.throws(() => verify(NATIVE_BALANCES, range, topoheight, json), expected, what);
  };
  const leaves = honest.chunk.leaves;
  refused(
    'a changed leaf value',
    withLeaves(
      leaves.map((leaf: any, i: number) => (i === 1 ? { ...leaf, value: withLastByteFlipped(leaf.value) } : leaf)),
    ),
    { code: StateProofErrorCode.BadRange, message: /^the chunk: the leaves do not rebuild the range's subtree$/ },
  );
  refused('a dropped leaf', withLeaves(leaves.slice(1)), {
    code: StateProofErrorCode.BadRange,
    message: /the leaves do not rebuild/,
  });
  refused('a leaf from another range', withLeaves([...leaves, other.chunk.leaves[0]]), {
    code: StateProofErrorCode.BadRange,
    message: /a leaf lies outside the range/,
  });
  refused('leaves out of order', withLeaves([...leaves].reverse()), {
    code: StateProofErrorCode.BadRange,
    message: /not in key-hash order/,
  });
  refused('an answer for another state', answer(NATIVE_BALANCES, range, top - 1n), {
    code: StateProofErrorCode.WrongStateRoot,
    message: /^the answer reads state [0-9a-f]{64}, not the verified/,
  });
  refused(
    'a proof against another topoheight’s root, claiming this one',
    { ...answer(NATIVE_BALANCES, range, top - 1n), treehash: honest.treehash },
    {
      code: StateProofErrorCode.BadTrieRoot,
      message: /^the meta-trie path: path node 0 is not the one its parent names$/,
    },
  );
  refused(
    'a meta path cut short',
    { ...honest, meta: honest.meta.slice(0, -1) },
    {
      code: StateProofErrorCode.BadTrieRoot,
      message: /the meta-trie path/,
    },
  );
  refused(
    'no chunk for a trie the state holds',
    { ...honest, chunk: null },
    {
      code: StateProofErrorCode.BadRange,
      message: /no chunk/,
    },
  );
  refused(
    'a chunk path node forged',
    { ...honest, chunk: { ...honest.chunk, path: ['01'.repeat(65)] } },
    {
      code: StateProofErrorCode.BadRange,
      message: /path node 0/,
    },
  );
  refused(
    'a field that is not hex',
    { ...honest, meta: ['zz'] },
    {
      code: StateProofErrorCode.MalformedAnswer,
      message: /^the answer's 'meta\[0\]' must be hex$/,
    },
  );
  refused(
    'a missing field',
    { ...honest, treehash: undefined },
    {
      code: StateProofErrorCode.MalformedAnswer,
      message: /'treehash' must be 32 bytes of hex/,
    },
  );
  refused('not an object', 'OK', { code: StateProofErrorCode.MalformedAnswer, message: /'answer' must be an object/ });

  const tokens = fromHex(`42${'ab'.repeat(32)}`);
  t.throws(() => verify(tokens, range, top, { ...answer(tokens, range, top), chunk: honest.chunk }), {
    code: StateProofErrorCode.BadRange,
    message: /a chunk of a trie the state does not hold/,
  });
  t.throws(() => verify(tokens, range, top, { ...honest }), StateProofError, 'a trie’s range passed off as another’s');
  const cause = (() => {
    try {
      verify(NATIVE_BALANCES, range, top, withLeaves(leaves.slice(1)));
    } catch (error) {
      return (error as Error).cause;
    }
  })();
  t.type(cause, RangeProofError, 'the flaw in the chunk is the cause');
});

t.test('requests no answer could be checked for are refused', async (t) => {
  t.throws(() => verifyStateProof(core, chain.stateRoots.get(top)!, fromHex('5a'), WHOLE_TRIE, {}), {
    code: StateProofErrorCode.BadRequest,
    message: /^5a names no trie of the state \(a trie is named 42‖asset/,
  });
  t.throws(
    () =>
      verifyStateProof(core, chain.stateRoots.get(top)!, NATIVE_BALANCES, { bits: 1, prefix: Uint8Array.of(0x40) }, {}),
    { code: StateProofErrorCode.BadRequest, message: /no bit set past them/ },
  );
});
