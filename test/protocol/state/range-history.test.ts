/** verifyRangeHistory on the daemon's answers over a real chain: honest ones prove every change, tampered ones are refused. */
import t from 'tap';
import { equalBytes, fromHex, toHex } from '../../../protocol/bytes.js';
import { rangeHistoryToJson, stateProofToJson } from '../../../protocol/state/proof-answers.js';
import { halvesOf, WHOLE_TRIE, type KeyRange } from '../../../protocol/state/range-check.js';
import { verifyRangeHistory } from '../../../protocol/state/range-history.js';
import { StateProofError, StateProofErrorCode } from '../../../protocol/state/state-proof-error.js';
import { verifyStateProof } from '../../../protocol/state/state-proof.js';
import { rangeHistory, stateProof } from '../../../plugins/consensus/rpc/proof-methods.js';
import { NATIVE_BALANCES, openProvenReadsChain, rangeChanges, rangeHolding } from '../../helpers/proven-reads.js';

const chain = await openProvenReadsChain();
const { core } = chain.test;
const top = chain.test.chain.top.height;

/** The daemon's answer as a client receives it (JSON). */
function answer(range: KeyRange, from: bigint, to: bigint, limit = 256, trie = NATIVE_BALANCES): any {
  const params = {
    trie: toHex(trie),
    bits: range.bits,
    prefix: toHex(range.prefix),
    from: Number(from),
    to: Number(to),
    limit,
  };
  return JSON.parse(JSON.stringify(rangeHistoryToJson(rangeHistory(chain.deps, params))));
}

const verify = (range: KeyRange, from: bigint, to: bigint, json: unknown, roots = chain.stateRoots) =>
  verifyRangeHistory(core, roots, NATIVE_BALANCES, range, { from, to }, json);

const flipLastBit = (hex: string): string => hex.slice(0, -1) + (Number.parseInt(hex.slice(-1), 16) ^ 1).toString(16);

/** Every range of `bits` bits. */
const rangesOf = (bits: number): KeyRange[] =>
  bits === 0 ? [WHOLE_TRIE] : rangesOf(bits - 1).flatMap((range) => halvesOf(range));

t.test('the chain has what the tests need', async (t) => {
  for (const height of chain.transferBlocks)
    t.equal(
      chain.test.chain.block(chain.test.chain.metaAtTopo(height)!.id)!.txHashes.length,
      1,
      `a transfer in ${height}`,
    );
  const quiet = rangesOf(3).filter((range) => rangeChanges(chain, NATIVE_BALANCES, range, 1n, top).length > 0);
  t.ok(
    quiet.some((range) => rangeChanges(chain, NATIVE_BALANCES, range, 1n, top).length < Number(top) - 1),
    'some range changes in some blocks and not in others',
  );
});

t.test('an honest answer proves exactly the blocks in which the range changed', async (t) => {
  for (const bits of [0, 1, 2, 3])
    for (const range of rangesOf(bits))
      for (const [from, to] of [
        [0n, top],
        [3n, 9n],
        [5n, 5n],
      ] as const) {
        const proven = verify(range, from, to, answer(range, from, to));
        const expected = rangeChanges(chain, NATIVE_BALANCES, range, from, to);
        t.same(
          proven.changes.map((change) => change.topoheight),
          expected,
          `${bits} bits, prefix ${toHex(range.prefix)}, (${from}, ${to}]`,
        );
        t.match(proven, { from, to, complete: true });
      }
});

t.test('the hashes it proves are those a state proof proves', async (t) => {
  const range = rangeHolding(chain, chain.accounts[5]!.key, 2);
  const proven = verify(range, 0n, top, answer(range, 0n, top));
  const atState = (topoheight: bigint) => {
    const params = {
      trie: toHex(NATIVE_BALANCES),
      bits: range.bits,
      prefix: toHex(range.prefix),
      topoheight: Number(topoheight),
      limit: 1024,
    };
    const json = JSON.parse(JSON.stringify(stateProofToJson(stateProof(chain.deps, params))));
    return verifyStateProof(core, chain.stateRoots.get(topoheight)!, NATIVE_BALANCES, range, json).rangeHash;
  };
  t.ok(equalBytes(proven.start, atState(0n)));
  for (const change of proven.changes) t.ok(equalBytes(change.rangeHash, atState(change.topoheight)));
});

t.test('an answer cut short by its limit is continued from where it ends', async (t) => {
  const range = rangeHolding(chain, chain.miner.key, 1);
  const expected = rangeChanges(chain, NATIVE_BALANCES, range, 0n, top);
  t.ok(expected.length > 3);
  const found: bigint[] = [];
  let from = 0n;
  let calls = 0;
  for (;;) {
    const proven = verify(range, from, top, answer(range, from, top, 2));
    calls++;
    found.push(...proven.changes.map((change) => change.topoheight));
    if (proven.complete) break;
    t.ok(proven.to > from, 'each answer gets further');
    from = proven.to;
  }
  t.same(found, expected);
  t.ok(calls >= expected.length / 2, `${calls} calls`);
});

t.test('tampered answers are refused, saying what failed', async (t) => {
  // A range with a change c after a block without one, and none in the last block.
  const isolated = (changes: bigint[]) => changes.find((c) => c > 1n && !changes.includes(c - 1n));
  const range = rangesOf(3).find((range) => {
    const changes = rangeChanges(chain, NATIVE_BALANCES, range, 0n, top);
    return isolated(changes) !== undefined && !changes.includes(top);
  })!;
  const c = Number(isolated(rangeChanges(chain, NATIVE_BALANCES, range, 0n, top))!);
  const honest = answer(range, 0n, top);
  const points = honest.points as { topoheight: number; meta: string[]; path: string[] }[];
  const refused = (
    what: string,
    json: unknown,
    expected: { code: string; message: RegExp },
    roots = chain.stateRoots,
  ) => {
    t.throws(() => verify(range, 0n, top, json, roots), StateProofError, what);
    t.throws(() => verify(range, 0n, top, json, roots), expected, what);
  };
  const without = (...topoheights: number[]) => ({
    ...honest,
    points: points.filter((point) => !topoheights.includes(point.topoheight)),
  });
  refused('a change left out', without(c - 1, c), {
    code: StateProofErrorCode.ChangeLeftOut,
    message:
      /^the range differs between topoheights \d+ and \d+, which are not adjacent: a change between them is left out$/,
  });
  refused('a change’s point left out', without(c), { code: StateProofErrorCode.ChangeLeftOut, message: /left out/ });
  const at = (topoheight: number) => points.find((point) => point.topoheight === topoheight)!;
  refused(
    'a proof against another topoheight’s root',
    { ...honest, points: points.map((point) => (point.topoheight === c ? { ...at(c - 1), topoheight: c } : point)) },
    { code: StateProofErrorCode.BadTrieRoot, message: /^at topoheight \d+: the meta-trie path: path node 0 is not/ },
  );
  refused(
    'a forged path node',
    {
      ...honest,
      points: points.map((point) =>
        point.topoheight === c ? { ...point, path: [flipLastBit(point.path[0]!), ...point.path.slice(1)] } : point,
      ),
    },
    { code: StateProofErrorCode.BadRange, message: /^the path at topoheight \d+: path node 0/ },
  );
  refused(
    'a point out of order',
    { ...honest, points: [points[0], points[2], points[1], ...points.slice(3)] },
    {
      code: StateProofErrorCode.BadPoints,
      message: /the points must increase/,
    },
  );
  refused(
    'a start elsewhere',
    { ...honest, from: 1, points: points.slice(1) },
    {
      code: StateProofErrorCode.BadPoints,
      message: /^the answer starts at topoheight \d+, not at 0$/,
    },
  );
  refused(
    'points that stop short of the end they claim',
    { ...honest, points: points.slice(0, -1) },
    {
      code: StateProofErrorCode.BadPoints,
      message: /do not run from topoheight 0 to 13/,
    },
  );
  refused(
    'no progress',
    { from: 0, to: 0, points: points.slice(0, 1) },
    {
      code: StateProofErrorCode.BadPoints,
      message: /does not get past its first topoheight/,
    },
  );
  const roots = new Map(chain.stateRoots);
  roots.delete(BigInt(c));
  refused(
    'a point whose state root the client has not verified',
    honest,
    {
      code: StateProofErrorCode.UnknownStateRoot,
      message: /^no verified state root at topoheight \d+$/,
    },
    roots,
  );
  refused(
    'a topoheight that is not an integer',
    { ...honest, to: '13' },
    {
      code: StateProofErrorCode.MalformedAnswer,
      message: /'to' must be a non-negative integer/,
    },
  );
  t.throws(() => verify(range, 0n, 12n, honest), {
    code: StateProofErrorCode.BadPoints,
    message: /beyond the 12 asked/,
  });
});

t.test('requests no answer could be checked for are refused', async (t) => {
  const code = fromHex('4d');
  t.throws(() => verifyRangeHistory(core, chain.stateRoots, code, WHOLE_TRIE, { from: 0n, to: top }, {}), {
    code: StateProofErrorCode.BadRequest,
    message: /only a range of a balance trie/,
  });
  t.throws(() => verify(WHOLE_TRIE, 5n, 4n, {}), { code: StateProofErrorCode.BadRequest, message: /above to/ });
});
