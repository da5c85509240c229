/**
 * A block the wallet read whole and checked (private-reads/verified-block.ts), in the shape the block scanner reads:
 * its header as the daemon's RPC would show it, built from the block's own bytes (the reward from the emission
 * schedule, the miners from its miniblocks and coinbase key), and its transfer and contract transactions with their
 * rings' addresses, read from the transactions themselves.
 */
import { encodeAddress } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import { blockReward } from '../../protocol/chain-params.js';
import type { NetworkName } from '../../protocol/network.js';
import { TxType } from '../../protocol/transaction.js';
import type { BlockTransfer, ChainBlock } from '../block-scanner.js';
import type { VerifiedBlock } from '../private-reads/verified-block.js';

export function chainBlockOf({ topoheight, id, block, transactions }: VerifiedBlock, network: NetworkName): ChainBlock {
  const genesis = block.height === 0n;
  const integrator = encodeAddress(network, block.minerTx.key);
  const txs: BlockTransfer[] = [];
  let fees = 0n;
  for (const { txid, tx, outcome } of transactions) {
    if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) continue;
    for (const payload of tx.payloads) fees += payload.statement.fees;
    txs.push({
      txid: toHex(txid),
      tx,
      ring: tx.payloads.map((payload) => payload.statement.ring.map((key) => encodeAddress(network, key))),
      ...(outcome && { sc_outcome: outcome }),
    });
  }
  const header = {
    hash: toHex(id),
    height: Number(block.height),
    topoheight: Number(topoheight),
    timestamp: Number(block.timestamp),
    txcount: block.txHashes.length,
    reward: genesis ? 0 : Number(blockReward(block.height)),
    miners: genesis ? null : block.miniblocks.map((mb) => (mb.final ? integrator : toHex(mb.keyHash))),
  };
  return { topoheight: Number(topoheight), header, txs, fees };
}
