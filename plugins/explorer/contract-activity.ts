/**
 * Installs and calls of contracts in the recent main chain, for the contract page. The chain keeps no index by
 * contract, so the last blocks are read; what each block's contract transactions do is remembered by block id (a
 * block's content never changes), so a scan only decodes blocks it has not seen.
 */
import { toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { summariseTransaction, type ContractAction } from './transaction-summary.js';

/** How far back the contract page looks for installs and calls. */
export const ACTIVITY_BLOCKS = 5000;
/** Most installs and calls a contract page lists. */
export const ACTIVITY_LIMIT = 100;
const REMEMBERED_BLOCKS = 20_000;

export interface ContractActivity {
  txid: string;
  height: number;
  block: string;
  action: ContractAction;
}

export function contractActivity(chain: ChainService): (scid: string) => ContractActivity[] {
  const byBlock = new Map<string, { txid: string; action: ContractAction }[]>();

  const actionsOf = (blockId: Uint8Array): { txid: string; action: ContractAction }[] => {
    const key = toHex(blockId);
    let actions = byBlock.get(key);
    if (actions) return actions;
    actions = [];
    for (const txid of chain.block(blockId)!.txHashes) {
      const bytes = chain.storedTransaction(txid);
      const action = bytes && summariseTransaction(txid, bytes).contract;
      if (action) actions.push({ txid: toHex(txid), action });
    }
    if (byBlock.size >= REMEMBERED_BLOCKS) byBlock.delete(byBlock.keys().next().value!);
    byBlock.set(key, actions);
    return actions;
  };

  return (scid) => {
    const wanted = scid.toLowerCase();
    const found: ContractActivity[] = [];
    const top = chain.top.height;
    const last = top > BigInt(ACTIVITY_BLOCKS) ? top - BigInt(ACTIVITY_BLOCKS) : 0n;
    for (let h = top; h > last && found.length < ACTIVITY_LIMIT; h--) {
      const meta = chain.metaAtTopo(h);
      // A fast-synced node holds no blocks below its history floor.
      if (!meta) break;
      if (meta.txCount === 0) continue;
      for (const { txid, action } of actionsOf(meta.id))
        if (action.scid === wanted) found.push({ txid, height: Number(h), block: toHex(meta.id), action });
    }
    return found;
  };
}
