/**
 * What one block means for the wallet's history of one asset — no daemon, no state: the block, the wallet's encrypted
 * balance of the asset after it and the amount before it go in; the entries it holds and the amount after come out.
 *
 * - a transfer whose payload of the asset has the wallet in its ring at index j: P = C_j − sk·D is a·G for the receiver,
 *   −(a + fee + burn)·G for the sender and the identity for a decoy (the proof's public sender parity says which
 *   sign to look for). Incoming: amount a, the payload decrypted with K(sk·D) (its arguments, ports, and the sender
 *   its first byte names when that index has the sender's parity), the payment proof from the blinder C_j − a·G.
 *   Outgoing: an entry recorded when sending gets its block fields; one not known (a restored wallet) is rebuilt —
 *   the deterministic blinding r is recomputed from the ring and root, and the receiver is the member k of the other
 *   parity with C_k − r·Y_k = (a − burn)·G; the entry of a contract transaction carries what its call did
 *   (`sc_outcome`) and the contract it installed or called (`contract`, read from its public arguments);
 * - coinbase (native coin only): the block's reward plus fees, a tenth to each of the nine miniblock miners (by key
 *   hash) and the rest to the integrator (the coinbase key); the wallet's share is one entry whose txid is the block hash;
 * - what remains of the balance change (credits no transfer names: contract payouts, refunds) is one incoming entry,
 *   with the contract when a single contract call of the block explains it.
 */
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { openPayload } from '../core-native/ts/payload-cipher.js';
import { senderParityOf } from '../core-native/ts/proof/parity.js';
import { transferBlinding } from '../core-native/ts/proof/statement.js';
import { payloadKey, sharedSecret } from '../core-native/ts/shared-secret.js';
import { encodePaymentProof } from '../protocol/address.js';
import { CHAIN_PARAMS } from '../protocol/chain-params.js';
import { equalBytes, fromHex, toHex } from '../protocol/bytes.js';
import { decodeRpcArguments, type RpcArgument } from '../protocol/rpc-arguments.js';
import { TxType, type TransferTx } from '../protocol/transaction.js';
import type { ContractCallOutcome } from '../protocol/contract-outcome.js';
import type { BlockHeaderRecord } from './daemon-client.js';
import {
  contractTarget,
  historyEntry,
  isoTime,
  type ContractTarget,
  type EntryFacts,
  type EntryPlace,
  type HistoryEntry,
} from './history-entry.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import type { WalletContext } from './wallet-context.js';

/** The encrypted balance of a token the account never held (no entry in the asset's tree): the implicit zero. */
export const IMPLICIT_ZERO = '';

/** A transfer or contract transaction of a block, with the addresses of its payloads' rings. */
export interface BlockTransfer {
  txid: string;
  tx: TransferTx;
  ring: string[][];
  /** What a contract transaction's call did in this block (as the daemon reports it). */
  sc_outcome?: ContractCallOutcome;
}

/** A block as the scanner reads it: its header and its transfer transactions with their fees. */
export interface ChainBlock {
  topoheight: number;
  header: BlockHeaderRecord;
  txs: BlockTransfer[];
  /** The fees of all its transactions. */
  fees: bigint;
}

/** Where an entry is on chain (and, for the sender of a contract transaction, what its call did there). */
export type BlockFields = EntryPlace & Pick<HistoryEntry, 'pos' | 'txid' | 'sc_outcome' | 'contract'>;

export interface BlockScan {
  /** New entries, in history order: the block's transfers, then the coinbase share, then a credit no transfer names. */
  entries: HistoryEntry[];
  /** Outgoing entries already in the history (recorded when sending) that this block holds, with their block fields. */
  mined: { entry: HistoryEntry; fields: BlockFields }[];
  /** Other assets whose payloads in this block have the wallet in their ring (the sync follows them). */
  assets: string[];
  /** The asset's amount after the block. */
  amount: bigint;
}

/** The scanner's part of the wallet's context: all but the daemon, which it never asks. */
export type ScannerContext = Pick<WalletContext, 'core' | 'generators' | 'keys' | 'decoder'>;

const isKeyHash = (miner: string): boolean => /^[0-9a-f]{32}$/.test(miner);

/** What a contract transaction installs or calls, read from its (public) contract arguments. */
const calledContract = ({ txid, tx }: BlockTransfer): ContractTarget | undefined =>
  tx.type === TxType.SmartContract ? contractTarget(txid, decodeArgs(tx.scData) ?? []) : undefined;

function decodeArgs(bytes: Uint8Array): RpcArgument[] | undefined {
  try {
    return decodeRpcArguments(bytes);
  } catch {
    return undefined;
  }
}

/** Where in the chain an entry of the block's `tpos`-th transaction is. */
const blockPlace = (header: BlockHeaderRecord, topoheight: number, tpos: number): EntryPlace => ({
  height: header.height,
  topoheight,
  blockhash: header.hash,
  tpos,
  time: isoTime(header.timestamp),
});

export class BlockScanner {
  /** The wallet's key hash, as the header's miners name ordinary miniblock miners. */
  private readonly keyHash: string;

  constructor(private readonly context: ScannerContext) {
    this.keyHash = toHex(context.core.blake2s256(context.keys.publicKey).slice(0, 16));
  }

  /** The amount of an encrypted balance (the implicit zero included), `guesses` first. */
  amountOf(data: string, guesses: bigint | bigint[]): bigint {
    return data === IMPLICIT_ZERO ? 0n : this.context.decoder.decode(data, this.context.keys.secretKey, guesses);
  }

  /**
   * The state at the registration block, whose encrypted balance of the asset is `data`: its amount, and a balance
   * already there (a premine) as a credit entry (a coinbase one for the native coin).
   */
  opening(
    scid: string,
    header: BlockHeaderRecord,
    topoheight: number,
    data: string,
  ): { amount: bigint; entries: HistoryEntry[] } {
    const native = scid === NATIVE_ASSET;
    // Accounts open empty, but for the premine key's coin at genesis.
    const premine = CHAIN_PARAMS[this.context.keys.network].premineAmount;
    const amount = this.amountOf(data, native && topoheight === 0 ? [0n, premine] : 0n);
    return {
      amount,
      entries: amount > 0n ? [this.creditEntry(header, topoheight, amount, native, native ? header.hash : '')] : [],
    };
  }

  /**
   * The entries of asset `scid` in `block`, after which the wallet's encrypted balance of the asset is `data` and
   * before which its amount was `before`; `history` is the asset's entries so far (outgoing ones are matched).
   * Without `decode`, `data` is not decoded: the amount after is `before` plus what the block explains, which the
   * caller checks against a later decode.
   */
  scan(
    scid: string,
    block: ChainBlock,
    data: string,
    before: bigint,
    history: readonly HistoryEntry[],
    decode = true,
  ): BlockScan {
    const { core, keys, decoder } = this.context;
    const coinbase = scid === NATIVE_ASSET ? this.coinbaseShare(block) : 0n;
    let explained = coinbase;
    const scan: BlockScan = { entries: [], mined: [], assets: [], amount: 0n };
    block.txs.forEach((transfer, tpos) => {
      const { txid, tx, ring, sc_outcome } = transfer;
      tx.payloads.forEach((payload, pos) => {
        const { statement } = payload;
        const j = statement.ring.findIndex((key) => equalBytes(key, keys.publicKey));
        if (j < 0) return;
        const asset = toHex(payload.scid);
        if (asset !== scid) {
          scan.assets.push(asset);
          return;
        }
        const D = core.g1Decompress(statement.D);
        const P = core.g1Sub(core.g1Decompress(statement.C[j]!), core.g1MulSecret(D, keys.secretKey));
        const parity = senderParityOf(core, fromHex(txid), payload.proof, statement.ringLog2);
        const place = blockPlace(block.header, block.topoheight, tpos);
        if (parity === j % 2) {
          // The sender, or a decoy of the sender's parity (P is then the identity: 0).
          const known = history.find((e) => e.txid === txid && e.pos === pos && !e.incoming);
          const spent = decoder.decodePoint(core.g1Neg(P), known ? [known.amount + known.fees] : []);
          if (!spent) return;
          explained -= spent;
          const contract = calledContract(transfer);
          const sent: BlockFields = {
            ...place,
            pos,
            txid,
            ...(sc_outcome && { sc_outcome }),
            ...(contract && { contract }),
          };
          if (known) scan.mined.push({ entry: known, fields: sent });
          else scan.entries.push(this.rebuiltOutgoing(tx, pos, j, parity, spent, ring[pos] ?? [], sent));
          return;
        }
        const amount = decoder.decodePoint(P);
        if (amount === null) return;
        const key = payloadKey(core, sharedSecret(core, keys.secretKey, D), core.g1Decompress(keys.publicKey));
        const plain = openPayload(core, key, payload.rpcPayload);
        const args = decodeArgs(plain.args);
        // A zero amount is a decoy's, unless the payload decrypts to arguments (a zero-amount message).
        if (amount === 0n && (!args || args.length === 0)) return;
        explained += amount;
        const s = plain.senderIndex;
        const sender = s < statement.ring.length && s !== j && s % 2 === parity ? (ring[pos]?.[s] ?? '') : '';
        const blinder = core.g1Sub(
          core.g1Decompress(statement.C[j]!),
          core.g1MulSecret(this.context.generators.G, bigintToBytes32BE(amount)),
        );
        scan.entries.push(
          historyEntry({
            place,
            txid,
            pos,
            kind: 'incoming',
            destination: keys.address,
            sender,
            amount,
            burn: payload.burn,
            fees: statement.fees,
            proof: encodePaymentProof(core.g1Compress(blinder), sharedSecret(core, keys.secretKey, D), amount),
            payloadtype: payload.rpcType,
            payload: { senderIndex: s, bytes: plain.args, args: args ?? [] },
          }),
        );
      });
    });
    scan.amount = decode ? this.amountOf(data, [before + explained, before]) : before + explained;
    if (coinbase > 0n)
      scan.entries.push(this.creditEntry(block.header, block.topoheight, coinbase, true, block.header.hash));
    const rest = scan.amount - before - explained;
    if (rest > 0n) {
      // A credit no transfer names: a contract's payout (or a refund) by a contract call of this block.
      const calls = block.txs.filter(({ tx }) => tx.type === TxType.SmartContract);
      const [call] = calls.length === 1 ? calls : [];
      scan.entries.push(
        this.creditEntry(block.header, block.topoheight, rest, false, call?.txid ?? '', call && calledContract(call)),
      );
    }
    return scan;
  }

  /** The wallet's share of the block's reward and fees. */
  private coinbaseShare({ header, fees }: ChainBlock): bigint {
    const miners = header.miners ?? [];
    const total = BigInt(header.reward) + fees;
    const share = total / 10n;
    const minerCount = miners.filter(isKeyHash).length;
    let mine = share * BigInt(miners.filter((m) => m === this.keyHash).length);
    if (miners.some((m) => !isKeyHash(m) && m === this.context.keys.address))
      mine += total - share * BigInt(minerCount);
    return mine;
  }

  /** An outgoing entry the history does not hold (a restored wallet's), rebuilt from the chain. */
  private rebuiltOutgoing(
    tx: TransferTx,
    pos: number,
    j: number,
    parity: number,
    spent: bigint,
    ring: string[],
    fields: BlockFields,
  ): HistoryEntry {
    const { core, keys, generators } = this.context;
    const payload = tx.payloads[pos]!;
    const { statement } = payload;
    const fee = statement.fees;
    const sent = spent - fee - payload.burn;
    const points = statement.ring.map((key) => core.g1Decompress(key));
    const r = bigintToBytes32BE(transferBlinding(core, generators.domain, keys.secretKey, statement.roothash, points));
    const expected = core.g1Mul(generators.G, bigintToBytes32BE(sent));
    const k = points.findIndex(
      (Y, i) =>
        i % 2 !== parity &&
        equalBytes(core.g1Sub(core.g1Decompress(statement.C[i]!), core.g1MulSecret(Y, r)), expected),
    );
    const outgoing: Omit<EntryFacts, 'destination'> = {
      place: fields,
      txid: fields.txid,
      pos,
      kind: 'outgoing',
      sender: keys.address,
      amount: sent + payload.burn,
      burn: payload.burn,
      fees: fee,
      payloadtype: payload.rpcType,
      ...(fields.sc_outcome && { sc_outcome: fields.sc_outcome }),
      ...(fields.contract && { contract: fields.contract }),
    };
    // No member of the receiver's parity matches (a payload not built the way this wallet builds them): the
    // receiver, the payload and the proof stay unknown.
    if (k < 0) return historyEntry({ ...outgoing, destination: '' });
    const shared = sharedSecret(core, r, points[k]!);
    const plain = openPayload(core, payloadKey(core, shared, points[k]!), payload.rpcPayload);
    return historyEntry({
      ...outgoing,
      destination: ring[k] ?? '',
      proof: encodePaymentProof(core.g1Compress(core.g1MulSecret(points[k]!, r)), shared, sent),
      payload: { senderIndex: j, bytes: plain.args, args: decodeArgs(plain.args) ?? [] },
    });
  }

  /**
   * A credit of the whole block: the wallet's coinbase share, or what a contract paid it (or refunded), with the
   * contract when one call explains it.
   */
  private creditEntry(
    header: BlockHeaderRecord,
    topoheight: number,
    amount: bigint,
    coinbase: boolean,
    txid: string,
    contract?: ContractTarget,
  ): HistoryEntry {
    return historyEntry({
      place: blockPlace(header, topoheight, 0),
      txid,
      kind: coinbase ? 'coinbase' : 'incoming',
      destination: this.context.keys.address,
      sender: '',
      amount,
      contract,
    });
  }
}
