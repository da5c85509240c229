/**
 * What the transactions of the recent main chain show anyone, for the contract and address pages. The chain keeps no
 * index by contract or by account, so a page scans the last ACTIVITY_BLOCKS blocks: each block's transactions are
 * decoded once and what they reveal (the contract they install or call, their rings' members, the sender a native
 * ring of 2 gives away) is remembered by block id — a block's content never changes — so later scans read memory,
 * not the store. The memory held is about 100 bytes a ring member, for the blocks of the window.
 */
import type { Core } from '../../core-native/ts/core.js';
import { toHex } from '../../protocol/bytes.js';
import { revealedSender } from '../../protocol/revealed-sender.js';
import { decodeTransaction } from '../../protocol/transaction.js';
import type { ChainService } from '../../host/services/chain.js';
import { contractAction, type ContractAction, TX_TYPE_NAMES } from './transaction-summary.js';

/** How far back the contract and address pages look. */
export const ACTIVITY_BLOCKS = 5000;
/** Most transactions one look lists. */
export const ACTIVITY_LIMIT = 100;
/** Blocks remembered: the window, and room for the blocks a reorganisation or a few new tops bring in. */
const REMEMBERED_BLOCKS = ACTIVITY_BLOCKS + 500;

export interface RevealedTransaction {
  txid: string;
  type: string;
  contract?: ContractAction;
  /** Each payload's asset (64 zeros: the native coin) and ring members (the hex of their keys). */
  rings: { asset: string; members: string[] }[];
  /** The hex of the sender's key, when a native ring of 2 reveals it. */
  signer?: string;
}

export interface RecentTransaction extends RevealedTransaction {
  height: number;
  block: string;
}

/** The transactions of the last ACTIVITY_BLOCKS blocks that `wanted` accepts, newest first, at most ACTIVITY_LIMIT. */
export type RecentTransactions = (wanted: (tx: RevealedTransaction) => boolean) => RecentTransaction[];

function reveal(core: Core, txid: Uint8Array, bytes: Uint8Array): RevealedTransaction {
  const tx = decodeTransaction(bytes);
  const id = toHex(txid);
  const contract = contractAction(id, tx);
  const signer = revealedSender(core, txid, tx);
  return {
    txid: id,
    type: TX_TYPE_NAMES[tx.type],
    ...(contract && { contract }),
    rings:
      'payloads' in tx
        ? tx.payloads.map((payload) => ({
            asset: toHex(payload.scid),
            members: payload.statement.ring.map((key) => toHex(key)),
          }))
        : [],
    ...(signer && { signer: toHex(signer) }),
  };
}

export function recentTransactions(chain: ChainService, core: Core): RecentTransactions {
  // Least recently scanned first: a scan touches every block of the window, so what falls out is what left it.
  const byBlock = new Map<string, RevealedTransaction[]>();

  const revealedIn = (blockId: Uint8Array): RevealedTransaction[] => {
    const key = toHex(blockId);
    let revealed = byBlock.get(key);
    if (revealed) byBlock.delete(key);
    else
      revealed = chain.block(blockId)!.txHashes.flatMap((txid) => {
        const bytes = chain.storedTransaction(txid);
        return bytes ? [reveal(core, txid, bytes)] : [];
      });
    byBlock.set(key, revealed);
    if (byBlock.size > REMEMBERED_BLOCKS) byBlock.delete(byBlock.keys().next().value!);
    return revealed;
  };

  return (wanted) => {
    const found: RecentTransaction[] = [];
    const top = chain.top.height;
    const last = top > BigInt(ACTIVITY_BLOCKS) ? top - BigInt(ACTIVITY_BLOCKS) : 0n;
    for (let h = top; h > last && found.length < ACTIVITY_LIMIT; h--) {
      const meta = chain.metaAtTopo(h);
      // A fast-synced node holds no blocks below its history floor.
      if (!meta) break;
      if (meta.txCount === 0) continue;
      for (const tx of revealedIn(meta.id))
        if (found.length < ACTIVITY_LIMIT && wanted(tx))
          found.push({ ...tx, height: Number(h), block: toHex(meta.id) });
    }
    return found;
  };
}
