/**
 * NODE.GetTransaction (docs/rpc.md § NODE.GetTransaction): one record per requested hash, in order —
 * where the transaction is (pool, main-chain block, nowhere), its rings as addresses, the signer a ring of 2 reveals,
 * and for a contract install the contract's balance and code at its block and now. Unknown hashes give an empty
 * record, not an error. Umbra fills `as_hex`, `tx_hash`, `balancenow` and `codenow`, which the reference leaves empty,
 * and adds `sc_outcome` to a mined contract transaction: what its call did in the block that executed it.
 */
import type { Core } from '../../../core-native/ts/core.js';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { contractAction } from '../../../protocol/contract-call-rules.js';
import { revealedSender } from '../../../protocol/revealed-sender.js';
import { decodeRpcArguments } from '../../../protocol/rpc-arguments.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { decodeTransaction, TxType, type Transaction } from '../../../protocol/transaction.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { TxPoolService } from '../../../host/services/tx-pool.js';
import type { AccountsReader } from '../accounts.js';
import type { Chain } from '../chain.js';

export interface TransactionRpcDeps {
  chain: Chain;
  core: Core;
  /** The pool, when the mempool plugin runs. */
  pool(): TxPoolService | undefined;
  addressOf(key: Uint8Array): string;
}

/** Most hashes one request may ask for. */
const MAX_HASHES = 1000;

const jsonUint = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());

/** A record with nothing found: what an unknown hash answers, and what a found one starts from. */
const EMPTY_RECORD = {
  as_hex: '',
  block_height: 0,
  reward: 0,
  ignored: false,
  in_pool: false,
  output_indices: null,
  tx_hash: '',
  valid_block: '',
  invalid_block: null,
  ring: null as string[][] | null,
  signer: '',
  balance: 0 as number | string,
  code: '',
  balancenow: 0 as number | string,
  codenow: '',
};
type TransactionRecord = typeof EMPTY_RECORD;

export function transactionMethods(deps: TransactionRpcDeps): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetTransaction',
      aliases: ['gettransactions'],
      params: objectParams(p.object({ txs_hashes: p.array(p.hash()), decode_as_json: p.optional(p.uint(), 0) })),
      handler: ({ txs_hashes }) => {
        if (txs_hashes.length > MAX_HASHES)
          throw new InvalidParamsError(
            `invalid params: 'txs_hashes' holds ${txs_hashes.length} hashes, at most ${MAX_HASHES} per request`,
          );
        const records = txs_hashes.map((hash) => transactionRecord(deps, hash));
        return { txs_as_hex: records.map((r) => r.hex), txs: records.map((r) => r.info), status: 'OK' };
      },
    }),
  ];
}

/** Where the node holds a transaction: its bytes, and the main-chain block including it (none: in the pool). */
export interface HeldTransaction {
  bytes: Uint8Array;
  blockId?: Uint8Array;
}

/**
 * The transaction `id` from the pool or the main chain; undefined when the node knows neither. One included in a
 * block whose body --prune-blocks dropped is an error saying so, rather than "unknown".
 */
export function heldTransaction(
  deps: Pick<TransactionRpcDeps, 'chain' | 'pool'>,
  id: Uint8Array,
): HeldTransaction | undefined {
  const pooled = deps.pool()?.get(id);
  if (pooled) return { bytes: pooled };
  const blockId = deps.chain.includingBlock(id);
  if (!blockId) return undefined;
  const bytes = deps.chain.storedTransaction(id);
  if (!bytes) deps.chain.heldBlock(deps.chain.meta(blockId)!);
  return bytes && { bytes, blockId };
}

/** The record of one hash: in the pool, in a main-chain block (with a contract's views and outcome), or unknown. */
function transactionRecord(deps: TransactionRpcDeps, hash: string): { hex: string; info: TransactionRecord } {
  const chain = deps.chain;
  const id = fromHex(hash, 32);
  const held = heldTransaction(deps, id);
  if (!held) return { hex: '', info: { ...EMPTY_RECORD } };
  const hex = toHex(held.bytes);
  const tx = decodeTransaction(held.bytes);
  const info = { ...EMPTY_RECORD, as_hex: hex, tx_hash: hash.toLowerCase(), ...participants(deps, id, tx) };
  if (!held.blockId) return { hex, info: { ...info, block_height: -1, in_pool: true } };
  const meta = chain.meta(held.blockId)!;
  const scid = installedScid(id, tx);
  const atBlock = scid && contractView(chain.stateAt(meta), scid);
  const now = scid && contractView(chain.stateAt(), scid);
  const outcome = tx.type === TxType.SmartContract ? chain.callOutcome(meta.id, id) : undefined;
  return {
    hex,
    info: {
      ...info,
      block_height: Number(meta.height),
      valid_block: toHex(meta.id),
      ...(atBlock && now
        ? { balance: atBlock.balance, code: atBlock.code, balancenow: now.balance, codenow: now.code }
        : {}),
      ...(outcome && { sc_outcome: outcome }),
    },
  };
}

/** Rings as addresses and the signer a native ring of 2 reveals. */
function participants(
  deps: TransactionRpcDeps,
  id: Uint8Array,
  tx: Transaction,
): { ring: string[][] | null; signer: string } {
  if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) return { ring: null, signer: '' };
  const ring = tx.payloads.map((payload) => payload.statement.ring.map((key) => deps.addressOf(key)));
  const sender = revealedSender(deps.core, id, tx);
  return { ring, signer: sender ? deps.addressOf(sender) : '' };
}

/** The SCID a transaction installs, if it is a contract install. */
function installedScid(id: Uint8Array, tx: Transaction): Uint8Array | undefined {
  if (tx.type !== TxType.SmartContract) return undefined;
  try {
    return contractAction(decodeRpcArguments(tx.scData)).install ? id : undefined;
  } catch {
    return undefined;
  }
}

function contractView(state: AccountsReader, scid: Uint8Array): { balance: number | string; code: string } {
  return { balance: jsonUint(state.contracts.balance(scid, NATIVE_SCID)), code: state.contracts.code(scid) ?? '' };
}
