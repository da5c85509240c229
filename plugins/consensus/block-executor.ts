/**
 * The state transition of one block (docs/protocol.md § Consensus rules, rule 6; rewards: § Miniblocks): on a writable overlay of the parent's
 * state, apply the block's transactions in order, then pay the block reward plus fees — a tenth to each of the nine
 * ordinary miniblocks' miners, the rest to the block's integrator — as public credits to their encrypted balances.
 */
import type { Block } from '../../protocol/block.js';
import { blockReward } from '../../protocol/chain-params.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import { NAME_SERVICE_PRIVILEGED_KEY, NAME_SERVICE_SCID, nameServiceSource } from '../../protocol/name-service.js';
import { TxType } from '../../protocol/transaction.js';
import { NATIVE_ASSET, type AccountsWriter } from './accounts.js';
import { BlockErrorCode, BlockRejected } from '../../protocol/chain/block-errors.js';

/** Homomorphic balance arithmetic the executor needs (ElGamal in the exponent). */
export interface BalanceMath {
  /** The starting balance of a newly registered key: an encryption of 0, (Y, G). */
  registration(key: Uint8Array): NonceBalance;
  /** The balance with `amount`·G added to L: a public credit. */
  credit(balance: NonceBalance, amount: bigint): NonceBalance;
}

/** Pays `amount` to a registered key's native balance. */
function creditKey(state: AccountsWriter, math: BalanceMath, key: Uint8Array, amount: bigint, who: string): void {
  const balance = state.getBalance(NATIVE_ASSET, key);
  if (!balance) throw new BlockRejected(BlockErrorCode.UnregisteredRewardKey, `${who} key is not registered`);
  if (amount > 0n) state.putBalance(NATIVE_ASSET, key, math.credit(balance, amount));
}

/** The keys of the nine ordinary miniblocks' miners, resolved from their key hashes in the parent state. */
export function miniblockMinerKeys(block: Block, state: AccountsWriter): Uint8Array[] {
  return block.miniblocks
    .filter((mb) => !mb.final)
    .map((mb, i) => {
      const key = state.findKeyByHashPrefix(mb.keyHash);
      if (!key)
        throw new BlockRejected(
          BlockErrorCode.UnregisteredRewardKey,
          `miniblock ${i} names a miner key that is not registered`,
        );
      return key;
    });
}

/**
 * Applies the genesis block: registers the premine key and credits the premine, and installs the name service
 * (its privileged key is the premine key on networks with a premine, none on mainnet).
 */
export function executeGenesis(block: Block, state: AccountsWriter, math: BalanceMath): void {
  const tx = block.minerTx;
  if (tx.type !== TxType.Premine)
    throw new BlockRejected(BlockErrorCode.GenesisWithoutPremine, 'the genesis block must carry a PREMINE transaction');
  state.putBalance(NATIVE_ASSET, tx.key, math.credit(math.registration(tx.key), tx.value));
  state.contracts.install(NAME_SERVICE_SCID, nameServiceSource(), false);
  if (tx.value > 0n)
    state.contracts.apply(NAME_SERVICE_SCID, [
      { key: NAME_SERVICE_PRIVILEGED_KEY, value: Buffer.from(tx.key).toString('latin1') },
    ]);
}

/** Applies a non-genesis block's rewards (transactions are applied by the transaction executor before this). */
export function payBlockRewards(block: Block, state: AccountsWriter, math: BalanceMath, fees: bigint): void {
  const minerKeys = miniblockMinerKeys(block, state);
  const total = blockReward(block.height) + fees;
  const share = total / 10n;
  const integratorShare = total - share * BigInt(minerKeys.length);
  for (const key of minerKeys) creditKey(state, math, key, share, 'miniblock miner');
  creditKey(state, math, block.minerTx.key, integratorShare, 'integrator (coinbase)');
}
