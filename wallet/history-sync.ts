/**
 * The wallet's history sync, per asset: the native coin and every token the wallet follows (assets it sent or
 * called, contracts it installed, assets named in GetBalance/GetTransfers, and the scid of any payload whose ring
 * holds the wallet in a block the sync reads). For each asset, from where the wallet last stopped (a topoheight, its
 * block hash and the encrypted balance of that asset there) to the daemon's top, it finds the blocks in which that
 * encrypted balance changed — by bisecting on equality of the encrypted balance, O(changes · log range) reads — and
 * reads each such block. A token the account never held has no entry in the asset's balance tree (the daemon answers
 * Account Unregistered): it is the implicit zero balance, compared as the empty string.
 *
 * - a transfer whose payload of the asset has the wallet in its ring at index j: P = C_j − sk·D is a·G for the receiver,
 *   −(a + fee + burn)·G for the sender and the identity for a decoy (the proof's public sender parity says which
 *   sign to look for). Incoming: amount a, the payload decrypted with K(sk·D) (its arguments, ports, and the sender
 *   its first byte names when that index has the sender's parity), the payment proof from the blinder C_j − a·G.
 *   Outgoing: an entry recorded when sending gets its block fields; one not known (a restored wallet) is rebuilt —
 *   the deterministic blinding r is recomputed from the ring and root, and the receiver is the member k of the other
 *   parity with C_k − r·Y_k = (a − burn)·G;
 * - coinbase (native coin only): the block's reward plus fees, a tenth to each of the nine miniblock miners (by key hash) and the rest
 *   to the integrator (the coinbase key); the wallet's share is one entry whose txid is the block hash;
 * - what remains of the balance change (credits no transfer names: contract payouts, refunds) is one incoming entry.
 *
 * Token entries carry `scid`. The positions (the native one and one per followed token) and the entries go to the
 * wallet file (when there is one) after every 100 blocks and at the end. A block hash that no longer matches at an
 * asset's saved position (a reorganisation) drops that asset's chain-found entries and starts it again from the
 * registration; outgoing entries keep their payloads and are found again.
 */
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { payloadKey, sharedSecret } from '../core-native/ts/shared-secret.js';
import { openPayload } from '../core-native/ts/payload-cipher.js';
import { senderParityOf } from '../core-native/ts/proof/parity.js';
import { transferBlinding } from '../core-native/ts/proof/statement.js';
import { encodePaymentProof } from '../host/protocol/address.js';
import { equalBytes, fromHex, toHex } from '../host/protocol/bytes.js';
import { decodeRpcArguments, rpcArgumentToJson, type RpcArgument } from '../host/protocol/rpc-arguments.js';
import { decodeTransaction, TxType, type TransferTx } from '../host/protocol/transaction.js';
import { DaemonRpcError, type BlockHeaderRecord } from './daemon-client.js';
import { isoTime, port, type TransferEntry, type TransferHistory } from './transfer-history.js';
import { ACCOUNT_UNREGISTERED, NATIVE_ASSET } from './wallet-constants.js';
import type { WalletService } from './wallet-service.js';

/** Where the sync stopped: the state after block `topoheight`. */
export interface SyncPosition {
  topoheight: number;
  blockhash: string;
  /** The encrypted balance there (GetEncryptedBalance hex) and its amount (decimal). */
  data: string;
  amount: string;
}

export interface SyncOptions {
  /** Called after progress worth keeping (every 100 blocks and at the end of a run). */
  save?: () => void;
  /** Called while a run reads blocks: blocks read so far of `total`. */
  progress?: (done: number, total: number) => void;
}

interface BlockFacts {
  topoheight: number;
  data: string;
  header: BlockHeaderRecord;
  txs: { txid: string; tx: TransferTx; ring: string[][] }[];
  fees: bigint;
}

/** Runs `work` over `items` with at most `limit` at a time; results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const SAVE_EVERY = 100;
const PARALLEL_READS = 16;
const isKeyHash = (miner: string): boolean => /^[0-9a-f]{32}$/.test(miner);

/** The encrypted balance of a token the account never held (no entry in the asset's tree): the implicit zero. */
const IMPLICIT_ZERO = '';

export class HistorySync {
  /** The native coin's position. */
  position?: SyncPosition;
  /** The followed tokens and their positions (none before their first sync). */
  readonly tokens = new Map<string, SyncPosition | undefined>();
  private queue: Promise<void> = Promise.resolve();
  private readonly keyHash: string;
  private readonly G: Uint8Array;
  /** Blocks read during the current run (several assets may change in one block). */
  private blocks = new Map<number, Promise<Omit<BlockFacts, 'data'>>>();

  constructor(
    private readonly wallet: WalletService,
    private readonly history: TransferHistory,
    private readonly options: SyncOptions = {},
  ) {
    this.keyHash = toHex(wallet.core.blake2s256(wallet.keys.publicKey).slice(0, 16));
    this.G = wallet.generators.G;
  }

  /** Follows a token from the next sync on (its history is read from the registration); the native coin always is. */
  follow(scid: string): void {
    if (scid !== NATIVE_ASSET && /^[0-9a-f]{64}$/.test(scid) && !this.tokens.has(scid)) this.tokens.set(scid, undefined);
  }

  /** The followed tokens with their positions, for the wallet file. */
  tokensToJSON(): Record<string, SyncPosition | null> {
    return Object.fromEntries([...this.tokens].map(([scid, position]) => [scid, position ?? null]));
  }

  /** Restores `tokensToJSON`'s form. */
  loadTokens(stored: unknown): void {
    this.tokens.clear();
    if (typeof stored !== 'object' || stored === null) return;
    for (const [scid, position] of Object.entries(stored)) {
      this.follow(scid);
      if (this.tokens.has(scid) && typeof position === 'object' && position !== null) this.tokens.set(scid, position as SyncPosition);
    }
  }

  /** Syncs to the daemon's current top; calls run one after another. */
  run(): Promise<void> {
    const run = this.queue.then(() => this.syncOnce());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async syncOnce(): Promise<void> {
    this.blocks = new Map();
    try {
      const top = (await this.wallet.daemon.getInfo()).topoheight;
      const topData = await this.balanceData(NATIVE_ASSET, top);
      if (topData === undefined) return; // not registered (yet): nothing to read
      // Assets the wallet sent have entries; follow them even when the wallet file predates following.
      for (const [scid] of this.history.assets()) this.follow(scid);
      let asked: Promise<number> | undefined;
      const registration = (): Promise<number> => (asked ??= this.wallet.daemon.getEncryptedBalance(this.wallet.address, NATIVE_ASSET, -1).then((r) => r.registration));
      await this.syncAsset(NATIVE_ASSET, registration, top, topData);
      // A block read may reveal a token (a payload whose ring holds the wallet): it is synced in this run too.
      const done = new Set<string>();
      for (let scid = this.nextToken(done); scid !== undefined; scid = this.nextToken(done)) {
        done.add(scid);
        await this.syncAsset(scid, registration, top, (await this.balanceData(scid, top)) ?? IMPLICIT_ZERO);
      }
      this.history.sort();
      this.save();
    } finally {
      this.blocks = new Map();
    }
  }

  private nextToken(done: Set<string>): string | undefined {
    return [...this.tokens.keys()].find((scid) => !done.has(scid));
  }

  private positionOf(scid: string): SyncPosition | undefined {
    return scid === NATIVE_ASSET ? this.position : this.tokens.get(scid);
  }

  private setPosition(scid: string, position: SyncPosition | undefined): void {
    if (scid === NATIVE_ASSET) this.position = position;
    else this.tokens.set(scid, position);
  }

  /** Syncs one asset from its position (or the registration) to `top`, whose encrypted balance is `topData`. */
  private async syncAsset(scid: string, registration: () => Promise<number>, top: number, topData: string): Promise<void> {
    let start = this.positionOf(scid);
    if (start && (await this.headerHash(start.topoheight)) !== start.blockhash) {
      this.rewind(scid);
      start = undefined;
    }
    if (!start) {
      start = await this.opening(scid, await registration());
      this.setPosition(scid, start);
    }
    if (top <= start.topoheight) return;
    const changed = new Map<number, string>();
    await this.changes(scid, start.topoheight, start.data, top, topData, changed);
    const topos = [...changed.keys()].sort((a, b) => a - b);
    let amount = BigInt(start.amount);
    let done = 0;
    const report = (): void => this.options.progress?.(done, topos.length);
    // Blocks are read ahead in parallel, in batches, and applied in order.
    for (let i = 0; i < topos.length; i += SAVE_EVERY) {
      const batch = await mapLimited(topos.slice(i, i + SAVE_EVERY), PARALLEL_READS, (topo) => this.readBlock(topo, changed.get(topo)!));
      for (const facts of batch) {
        amount = this.apply(scid, facts, amount);
        done++;
      }
      const last = batch[batch.length - 1]!;
      this.setPosition(scid, { topoheight: last.topoheight, blockhash: last.header.hash, data: last.data, amount: amount.toString() });
      report();
      if (i + SAVE_EVERY < topos.length) this.save();
    }
    const topHash = await this.headerHash(top);
    this.setPosition(scid, { topoheight: top, blockhash: topHash ?? '', data: topData, amount: amount.toString() });
  }

  private save(): void {
    this.options.save?.();
  }

  private async headerHash(topoheight: number): Promise<string | undefined> {
    try {
      return (await this.wallet.daemon.blockHeaderByTopoHeight(topoheight)).hash;
    } catch (error) {
      if (error instanceof DaemonRpcError) return undefined;
      throw error;
    }
  }

  /** The wallet's encrypted balance of an asset after block `topoheight`, or undefined when it has no entry there. */
  private async balanceData(scid: string, topoheight: number): Promise<string | undefined> {
    try {
      return (await this.wallet.daemon.getEncryptedBalance(this.wallet.address, scid, topoheight)).data;
    } catch (error) {
      if (error instanceof DaemonRpcError && error.message === ACCOUNT_UNREGISTERED) return undefined;
      throw error;
    }
  }

  /** The amount of an encrypted balance (the implicit zero included), `guesses` first. */
  private amountOf(data: string, guesses: bigint | bigint[]): bigint {
    return data === IMPLICIT_ZERO ? 0n : this.wallet.decoder.decode(data, this.wallet.keys.secretKey, guesses);
  }

  /** The state at the registration block; a balance already there (a premine) is a coinbase entry. */
  private async opening(scid: string, registration: number): Promise<SyncPosition> {
    const data = (await this.balanceData(scid, registration)) ?? IMPLICIT_ZERO;
    const header = await this.wallet.daemon.blockHeaderByTopoHeight(registration);
    const amount = this.amountOf(data, 0n);
    const native = scid === NATIVE_ASSET;
    if (amount > 0n) this.history.add(scid, this.creditEntry(header, registration, amount, native, native ? header.hash : ''));
    return { topoheight: registration, blockhash: header.hash, data, amount: amount.toString() };
  }

  /** Drops what the chain told of an asset (a reorganisation): incoming entries go, outgoing ones wait to be found again. */
  private rewind(scid: string): void {
    this.setPosition(scid, undefined);
    const entries = this.history.entries(scid);
    const kept = entries.filter((entry) => !entry.incoming && !entry.coinbase);
    for (const entry of kept) Object.assign(entry, { height: 0, topoheight: -1, blockhash: '' });
    entries.splice(0, entries.length, ...kept);
  }

  /** Adds to `out` every topoheight in (lo, hi] after which the encrypted balance differs from the one before. */
  private async changes(scid: string, lo: number, loData: string, hi: number, hiData: string, out: Map<number, string>): Promise<void> {
    if (loData === hiData) return;
    if (hi === lo + 1) {
      out.set(hi, hiData);
      return;
    }
    const mid = Math.floor((lo + hi) / 2);
    // The native balance exists from the registration on; a token's is the implicit zero until it has an entry.
    const midData = (await this.balanceData(scid, mid)) ?? (scid === NATIVE_ASSET ? loData : IMPLICIT_ZERO);
    await Promise.all([this.changes(scid, lo, loData, mid, midData, out), this.changes(scid, mid, midData, hi, hiData, out)]);
  }

  private async readBlock(topoheight: number, data: string): Promise<BlockFacts> {
    let read = this.blocks.get(topoheight);
    if (!read) {
      read = this.readBlockTxs(topoheight);
      this.blocks.set(topoheight, read);
    }
    return { ...(await read), data };
  }

  private async readBlockTxs(topoheight: number): Promise<Omit<BlockFacts, 'data'>> {
    const { daemon } = this.wallet;
    const header = await daemon.blockHeaderByTopoHeight(topoheight);
    const facts: Omit<BlockFacts, 'data'> = { topoheight, header, txs: [], fees: 0n };
    if (header.txcount === 0) return facts;
    const hashes = await daemon.blockTxHashes(header.hash);
    const records = await daemon.getTransactions(hashes);
    records.forEach((record, i) => {
      const tx = decodeTransaction(fromHex(record.as_hex));
      if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) return;
      for (const payload of tx.payloads) facts.fees += payload.statement.fees;
      facts.txs.push({ txid: hashes[i]!, tx, ring: record.ring ?? [] });
    });
    return facts;
  }

  /** The wallet's share of the block's reward and fees. */
  private coinbaseShare({ header, fees }: BlockFacts): bigint {
    const miners = header.miners ?? [];
    const total = BigInt(header.reward) + fees;
    const share = total / 10n;
    const minerCount = miners.filter(isKeyHash).length;
    let mine = share * BigInt(miners.filter((m) => m === this.keyHash).length);
    if (miners.some((m) => !isKeyHash(m) && m === this.wallet.address)) mine += total - share * BigInt(minerCount);
    return mine;
  }

  /** Records a block's entries; the amount after it. */
  private apply(scid: string, facts: BlockFacts, before: bigint): bigint {
    const { core, keys, decoder } = this.wallet;
    const coinbase = scid === NATIVE_ASSET ? this.coinbaseShare(facts) : 0n;
    let explained = coinbase;
    const entries: TransferEntry[] = [];
    facts.txs.forEach(({ txid, tx, ring }, tpos) => {
      tx.payloads.forEach((payload, pos) => {
        const { statement } = payload;
        const j = statement.ring.findIndex((key) => equalBytes(key, keys.publicKey));
        if (j < 0) return;
        const asset = toHex(payload.scid);
        if (asset !== scid) {
          // The wallet is a ring member of another asset's payload: that asset is followed (and read in this run).
          this.follow(asset);
          return;
        }
        const D = core.g1Decompress(statement.D);
        const P = core.g1Sub(core.g1Decompress(statement.C[j]!), core.g1MulSecret(D, keys.secretKey));
        const parity = senderParityOf(core, fromHex(txid), payload.proof, statement.ringLog2);
        const base = { height: facts.header.height, topoheight: facts.topoheight, blockhash: facts.header.hash, tpos, pos, txid, time: isoTime(facts.header.timestamp) };
        if (parity === j % 2) {
          // The sender, or a decoy of the sender's parity (P is then the identity: 0).
          const known = this.history.entries(scid).find((e) => e.txid === txid && e.pos === pos && !e.incoming);
          const spent = decoder.decodePoint(core.g1Neg(P), known ? [BigInt(known.amount + known.fees)] : []);
          if (!spent) return;
          explained -= spent;
          if (known) Object.assign(known, base);
          else entries.push(this.rebuiltOutgoing(tx, pos, j, parity, spent, ring[pos] ?? [], base));
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
        const blinder = core.g1Sub(core.g1Decompress(statement.C[j]!), core.g1Mul(this.G, bigintToBytes32BE(amount)));
        entries.push({
          ...base, minerreward: 0, coinbase: false, incoming: true, destination: this.wallet.address, amount: Number(amount), ...(payload.burn > 0n ? { burn: Number(payload.burn) } : {}),
          fees: Number(statement.fees), proof: encodePaymentProof(core.g1Compress(blinder), sharedSecret(core, keys.secretKey, D), amount), status: 0, ewdata: '',
          ...payloadFields(payload.rpcType, plain.senderIndex, plain.args, args ?? []), sender,
        });
      });
    });
    const after = this.amountOf(facts.data, [before + explained, before]);
    for (const entry of entries) this.history.add(scid, entry);
    if (coinbase > 0n) this.history.add(scid, this.creditEntry(facts.header, facts.topoheight, coinbase, true, facts.header.hash));
    const rest = after - before - explained;
    if (rest > 0n) {
      // A credit no transfer names: a contract's payout (or a refund) by a contract call of this block.
      const calls = facts.txs.filter(({ tx }) => tx.type === TxType.SmartContract);
      this.history.add(scid, this.creditEntry(facts.header, facts.topoheight, rest, false, calls.length === 1 ? calls[0]!.txid : ''));
    }
    return after;
  }

  private rebuiltOutgoing(tx: TransferTx, pos: number, j: number, parity: number, spent: bigint, ring: string[], base: Partial<TransferEntry>): TransferEntry {
    const { core, keys, generators } = this.wallet;
    const payload = tx.payloads[pos]!;
    const { statement } = payload;
    const fee = statement.fees;
    const sent = spent - fee - payload.burn;
    const points = statement.ring.map((key) => core.g1Decompress(key));
    const r = bigintToBytes32BE(transferBlinding(core, generators.domain, keys.secretKey, statement.roothash, points));
    const expected = core.g1Mul(this.G, bigintToBytes32BE(sent));
    const k = points.findIndex((Y, i) => i % 2 !== parity && equalBytes(core.g1Sub(core.g1Decompress(statement.C[i]!), core.g1MulSecret(Y, r)), expected));
    const entry: TransferEntry = {
      height: 0, topoheight: -1, blockhash: '', tpos: 0, pos, txid: '', time: '', ...base,
      minerreward: 0, coinbase: false, incoming: false, destination: k >= 0 ? (ring[k] ?? '') : '', amount: Number(sent + payload.burn), ...(payload.burn > 0n ? { burn: Number(payload.burn) } : {}),
      fees: Number(fee), proof: '', status: 1, ewdata: '', data: '', payloadtype: payload.rpcType, payload: '', sender: this.wallet.address, dstport: 0, srcport: 0,
    };
    if (k < 0) return entry;
    const shared = sharedSecret(core, r, points[k]!);
    const plain = openPayload(core, payloadKey(core, shared, points[k]!), payload.rpcPayload);
    const args = decodeArgs(plain.args) ?? [];
    return { ...entry, proof: encodePaymentProof(core.g1Compress(core.g1MulSecret(points[k]!, r)), shared, sent), ...payloadFields(payload.rpcType, j, plain.args, args) };
  }

  private creditEntry(header: BlockHeaderRecord, topoheight: number, amount: bigint, coinbase: boolean, txid: string): TransferEntry {
    return {
      height: header.height, topoheight, blockhash: header.hash, minerreward: coinbase ? Number(amount) : 0, tpos: 0, pos: 0, coinbase, incoming: true, txid,
      destination: this.wallet.address, amount: Number(amount), fees: 0, proof: '', status: 0, time: isoTime(header.timestamp), ewdata: '', data: '',
      payloadtype: 0, payload: '', sender: '', dstport: 0, srcport: 0,
    };
  }
}

function decodeArgs(bytes: Uint8Array): RpcArgument[] | undefined {
  try {
    return decodeRpcArguments(bytes);
  } catch {
    return undefined;
  }
}

/** The payload fields of an entry, as the sender records them (sender index ‖ padded arguments). */
function payloadFields(payloadtype: number, senderIndex: number, padded: Uint8Array, args: RpcArgument[]): Pick<TransferEntry, 'data' | 'payloadtype' | 'payload' | 'payload_rpc' | 'dstport' | 'srcport'> {
  return {
    data: Buffer.concat([Buffer.from([senderIndex]), padded]).toString('base64'), payloadtype, payload: Buffer.from(padded).toString('base64'),
    ...(args.length > 0 ? { payload_rpc: args.map(rpcArgumentToJson) } : {}), dstport: port(args, 'D'), srcport: port(args, 'S'),
  };
}
