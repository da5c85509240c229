/**
 * Proven state reads (docs/rpc.md § NODE.GetStateProof, § NODE.GetRangeHistory; docs/protocol.md § Proven reads):
 * answers a client that trusts no daemon can check against the state roots of headers it verified itself
 * (protocol/state/state-proof.ts, range-history.ts). Each call costs the node bounded work: at most
 * MAX_PROOF_LEAVES leaves, or MAX_HISTORY_PROBES state walks and MAX_HISTORY_BYTES of proofs.
 */
import { equalBytes, fromHex } from '../../../protocol/bytes.js';
import {
  rangeHistoryToJson,
  stateProofToJson,
  type HistoryPoint,
  type RangeHistoryAnswer,
  type StateProofAnswer,
} from '../../../protocol/state/proof-answers.js';
import { isWellFormed, MAX_RANGE_BITS, type KeyRange } from '../../../protocol/state/range-check.js';
import { TRIE_NAME_FORMS, trieKind } from '../../../protocol/state/trie-names.js';
import { absentRangeHash, KEY_HASH_BITS } from '../../../protocol/state/trie-root-proof.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { Chain } from '../chain.js';
import type { BlockMeta } from '../chain-store.js';
import { HistoryErrorCode, HistoryNotHeld } from '../history-error.js';
import { CHUNK_LIMITS } from '../snapshots.js';
import { pathTo, proveRange, proveRangeHash } from '../state/range-proof.js';
import type { NodeSource } from '../state/trie.js';

export interface ProofRpcDeps {
  chain: Chain;
  /** The stored trie nodes of every state the node holds. */
  nodes: NodeSource;
}

/** Most leaves one GetStateProof answer holds (a larger range is answered split). */
export const MAX_PROOF_LEAVES = CHUNK_LIMITS.leaves;
/** Most changes one GetRangeHistory answer lists. */
export const MAX_HISTORY_CHANGES = 256;
/** Most states one GetRangeHistory call reads the range's hash in while looking for changes. */
export const MAX_HISTORY_PROBES = 2048;
/** Proof bytes after which a GetRangeHistory answer stops (at the point that passes them). */
export const MAX_HISTORY_BYTES = 1024 * 1024;

const rangeParams = {
  trie: p.hex(),
  bits: p.uint(),
  prefix: p.optional(p.hex(), ''),
};

interface RangeParams {
  trie: string;
  bits: number;
  prefix: string;
}

/** The trie's name and the range, or -32602 saying what is wrong with them. */
function readRange(params: RangeParams): { trie: Uint8Array; range: KeyRange } {
  const trie = fromHex(params.trie);
  if (!trieKind(trie))
    throw new InvalidParamsError(
      `invalid params: 'trie' must name a trie of the state: ${TRIE_NAME_FORMS}; got "${params.trie}"`,
    );
  if (params.bits > MAX_RANGE_BITS)
    throw new InvalidParamsError(`invalid params: 'bits' must be 0 … ${MAX_RANGE_BITS}, got ${params.bits}`);
  const range = { bits: params.bits, prefix: fromHex(params.prefix) };
  if (!isWellFormed(range))
    throw new InvalidParamsError(
      `invalid params: 'prefix' must be ${Math.ceil(range.bits / 8)} bytes of hex for ${range.bits} bits, with no ` +
        `bit set past them; got "${params.prefix}"`,
    );
  return { trie, range };
}

/** The main-chain block at a topoheight (-1: the top) whose state this node holds. */
function heldState(chain: Chain, topoheight: number, name: string): BlockMeta {
  const top = chain.top.height;
  if (topoheight < -1 || BigInt(topoheight) > top)
    throw new InvalidParamsError(
      `invalid params: '${name}' must be a topoheight on the chain (0 … ${top}, or -1 for the latest), got ${topoheight}`,
    );
  const at = topoheight === -1 ? top : BigInt(topoheight);
  const floor = chain.historyFloor();
  if (at < floor) throw new HistoryNotHeld(HistoryErrorCode.StateNotHeld, at, floor);
  return chain.heldMetaAtTopo(at);
}

/** The meta-trie path proving the root of trie `name` in the state at `stateRoot` (undefined: no such trie). */
function trieRootPath(nodes: NodeSource, stateRoot: Uint8Array, name: Uint8Array) {
  const keyhash = nodes.hash(name);
  const { path, end } = pathTo(nodes, stateRoot, keyhash, KEY_HASH_BITS);
  const found = end.kind === 'leaf' && equalBytes(end.leaf.key, name);
  return { meta: path, root: found ? end.leaf.value : undefined };
}

interface StateProofParams extends RangeParams {
  topoheight: number;
  limit: number;
}

/** NODE.GetStateProof: one range of one trie at one state, with the path that proves the trie's root. */
export function stateProof(deps: ProofRpcDeps, params: StateProofParams): StateProofAnswer {
  const { trie, range } = readRange(params);
  if (params.limit < 1 || params.limit > MAX_PROOF_LEAVES)
    throw new InvalidParamsError(`invalid params: 'limit' must be 1 … ${MAX_PROOF_LEAVES}, got ${params.limit}`);
  const meta = heldState(deps.chain, params.topoheight, 'topoheight');
  const { meta: metaPath, root } = trieRootPath(deps.nodes, meta.stateRoot, trie);
  return {
    topoheight: meta.height,
    blockhash: meta.id,
    treehash: meta.stateRoot,
    meta: metaPath,
    chunk: root ? proveRange(deps.nodes, root, range, { ...CHUNK_LIMITS, leaves: params.limit }) : null,
  };
}

interface RangeHistoryParams extends RangeParams {
  from: number;
  to: number;
  limit: number;
}

/**
 * NODE.GetRangeHistory: the range's subtree hash proven at `from`, at each change and the block before it, and at the
 * end — the points a client needs to see that no change is left out (protocol/state/range-history.ts). The changes
 * are found by bisecting on equal hashes (a balance range never returns to an earlier content), left half first, so
 * an answer the bounds cut short still covers everything up to its last point.
 */
export function rangeHistory(deps: ProofRpcDeps, params: RangeHistoryParams): RangeHistoryAnswer {
  const { chain, nodes } = deps;
  const { trie, range } = readRange(params);
  if (trieKind(trie) !== 'balances')
    throw new InvalidParamsError(
      "invalid params: 'trie' must name a balance trie (42‖asset): only a balance range never returns to an earlier " +
        'content, which its history proof relies on',
    );
  if (params.limit < 1 || params.limit > MAX_HISTORY_CHANGES)
    throw new InvalidParamsError(`invalid params: 'limit' must be 1 … ${MAX_HISTORY_CHANGES}, got ${params.limit}`);
  const last = heldState(chain, params.to, 'to');
  if (params.from > last.height)
    throw new InvalidParamsError(`invalid params: 'from' (${params.from}) must not be above 'to' (${last.height})`);
  const first = heldState(chain, params.from, 'from');

  /** The range's subtree hash at a topoheight, with the paths that prove it. */
  const readAt = (topoheight: bigint): { hash: Uint8Array; point: HistoryPoint } => {
    const { stateRoot } = chain.heldMetaAtTopo(topoheight);
    const { meta, root } = trieRootPath(nodes, stateRoot, trie);
    if (!root) return { hash: absentRangeHash(nodes.hash, range), point: { topoheight, meta, path: [] } };
    const { hash, path } = proveRangeHash(nodes, root, range);
    return { hash, point: { topoheight, meta, path } };
  };

  const changes: bigint[] = [];
  let covered = first.height;
  let probes = 0;
  type Probe = { topoheight: bigint; hash: Uint8Array };
  const probe = (topoheight: bigint): Probe => {
    probes++;
    return { topoheight, hash: readAt(topoheight).hash };
  };
  /** Finds the changes in (lo, hi], in order; false once a bound stops it (`covered` says how far it got). */
  const search = (lo: Probe, hi: Probe): boolean => {
    if (equalBytes(lo.hash, hi.hash)) {
      covered = hi.topoheight;
      return true;
    }
    if (hi.topoheight === lo.topoheight + 1n) {
      changes.push(hi.topoheight);
      covered = hi.topoheight;
      return changes.length < params.limit;
    }
    if (probes >= MAX_HISTORY_PROBES) return false;
    const mid = probe((lo.topoheight + hi.topoheight) / 2n);
    return search(lo, mid) && search(mid, hi);
  };
  if (last.height > first.height) search(probe(first.height), probe(last.height));

  const topoheights = [...new Set([first.height, ...changes.flatMap((at) => [at - 1n, at]), covered])];
  const points: HistoryPoint[] = [];
  let bytes = 0;
  for (const topoheight of topoheights) {
    if (points.length >= 2 && bytes > MAX_HISTORY_BYTES) break;
    const { point } = readAt(topoheight);
    points.push(point);
    bytes += [...point.meta, ...point.path].reduce((sum, node) => sum + node.length, 0);
  }
  return { from: first.height, to: points[points.length - 1]!.topoheight, points };
}

export function proofMethods(deps: ProofRpcDeps): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetStateProof',
      aliases: ['getstateproof'],
      params: objectParams(
        p.object({
          ...rangeParams,
          topoheight: p.optional(p.int(), -1),
          limit: p.optional(p.uint(), MAX_PROOF_LEAVES),
        }),
      ),
      handler: (params) => ({ ...stateProofToJson(stateProof(deps, params)), status: 'OK' }),
    }),
    defineMethod({
      name: 'NODE.GetRangeHistory',
      aliases: ['getrangehistory'],
      params: objectParams(
        p.object({
          ...rangeParams,
          from: p.uint(),
          to: p.optional(p.int(), -1),
          limit: p.optional(p.uint(), MAX_HISTORY_CHANGES),
        }),
      ),
      handler: (params) => ({ ...rangeHistoryToJson(rangeHistory(deps, params)), status: 'OK' }),
    }),
  ];
}
