/**
 * The proven modes (chain-access.ts): `private` and `trusted`. Both take the top from the wallet's light client (a
 * header chain it checked), read every value with a proof against a verified state root and every block whole,
 * checked against its verified header; they differ in what they ask:
 * - private: the wallet's balance as one leaf of its privacy range (at least K accounts) and its changes as the
 *   blocks in which that range changed (NODE.GetRangeHistory, proven complete), each read whole and the range read
 *   at each; its registration by bisecting on its proven balance. Nothing asked names the account or a prefix
 *   narrower than its range.
 * - trusted: the wallet's own key read directly, its changes listed by address (NODE.GetBalanceChanges, the daemon's
 *   word for where they are), every balance there proven.
 */
import type { Core } from '../../core-native/ts/core.js';
import { decodeAddress, encodeAddress } from '../../protocol/address.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import type { KeyRange } from '../../protocol/state/range-check.js';
import { byteStringUtf8, utf8ByteString } from '../../protocol/contract-values.js';
import { trieName } from '../../protocol/state/trie-names.js';
import { findBalanceChanges, listBalanceChanges } from '../balance-changes.js';
import { IMPLICIT_ZERO, type ChainBlock } from '../block-scanner.js';
import type { BalanceAt, DaemonClient } from '../daemon-client.js';
import type { LightClient } from '../light-client/light-client.js';
import { mapLimited } from '../map-limited.js';
import {
  DEFAULT_PRIVACY_K,
  privacyRangeFromJson,
  privacyRangeToJson,
  type StoredPrivacyRange,
} from '../private-reads/privacy-range.js';
import { ProofClient } from '../private-reads/proof-client.js';
import { ProvenState } from '../private-reads/proven-state.js';
import { rangeChanges } from '../private-reads/range-changes.js';
import { proofRefused } from '../private-reads/read-refusal.js';
import { readVerifiedBlocks } from '../private-reads/verified-block.js';
import { NATIVE_ASSET } from '../wallet-constants.js';
import type { WalletKeys } from '../wallet-keys.js';
import type { AccessStatus, BalanceWanted, ChainAccess, ChainTop } from './chain-access.js';
import { balanceKey } from './chain-access.js';
import { chainBlockOf } from './verified-chain-block.js';

/** State reads a sync has in flight at once. */
const PARALLEL_READS = 16;
/** Blocks read in one batch (their transactions in one call), and batches in flight at once. */
const BLOCKS_PER_BATCH = 100;
const PARALLEL_BATCHES = 4;

export interface ProvenAccessOptions {
  core: Core;
  keys: WalletKeys;
  daemon: DaemonClient;
  /** The daemon the wallet sends through, which reads a ring's balances (default: `daemon`). */
  sendDaemon?: DaemonClient;
  mode: 'private' | 'trusted';
  light: LightClient;
  /** Accounts a privacy range holds at least (private mode; default 256). */
  privacySet?: number;
  /** What `saved()` gave in an earlier run (the privacy ranges found), if anything. */
  saved?: unknown;
}

/** What the proven modes keep in the wallet file: the privacy ranges found, and the K they were found for. */
interface SavedAccess {
  privacySet: number;
  ranges: Record<string, StoredPrivacyRange>;
}

export class ProvenAccess implements ChainAccess {
  readonly mode: 'private' | 'trusted';
  private readonly client: ProofClient;
  private readonly state: ProvenState;
  /** The reads made while building a transaction: through the daemon the wallet sends through. */
  private readonly sendState: ProvenState;
  private readonly k: number;

  constructor(private readonly options: ProvenAccessOptions) {
    const { core, keys, daemon, mode } = options;
    this.mode = mode;
    this.k = options.privacySet ?? DEFAULT_PRIVACY_K;
    this.client = new ProofClient(daemon);
    const keyhash = core.blake2s256(keys.publicKey);
    const stateOptions = { hashes: core, roots: options.light, publicKey: keys.publicKey, k: this.k };
    this.state = new ProvenState({
      ...stateOptions,
      client: this.client,
      ranges: savedRanges(options.saved, this.k, keyhash),
    });
    this.sendState = options.sendDaemon
      ? new ProvenState({ ...stateOptions, client: new ProofClient(options.sendDaemon) })
      : this.state;
  }

  /** The privacy ranges found so far, for the wallet file (the next run starts from them). */
  saved(): SavedAccess {
    const ranges = Object.fromEntries(
      [...this.state.ranges].map(([asset, range]) => [asset, privacyRangeToJson(range)]),
    );
    return { privacySet: this.k, ranges };
  }

  async top(): Promise<ChainTop> {
    const top = await this.options.light.sync(this.options.daemon);
    return {
      height: Number(top.height),
      topoheight: Number(top.height),
      hash: toHex(top.id),
      stateRoot: toHex(top.stateRoot),
    };
  }

  async headerHash(topoheight: number): Promise<string | undefined> {
    const header = this.options.light.header(BigInt(topoheight));
    return header && toHex(header.id);
  }

  async ownBalance(scid: string, topoheight: number): Promise<string | undefined> {
    const asset = fromHex(scid, 32);
    const at = BigInt(topoheight);
    const value =
      this.mode === 'private'
        ? await this.state.ownBalance(asset, at)
        : (
            await this.state.reader.readKeys(
              trieName('B', asset),
              [this.options.keys.publicKey],
              at,
              "the wallet's balance",
            )
          )[0];
    return value && toHex(value);
  }

  async registration(top: number): Promise<number> {
    const first = Number(this.options.light.first?.height ?? 0n);
    const registered = async (topoheight: number) => (await this.ownBalance(NATIVE_ASSET, topoheight)) !== undefined;
    if (this.mode === 'trusted') {
      const said = (await this.options.daemon.getEncryptedBalance(this.options.keys.address, NATIVE_ASSET, -1))
        .registration;
      const proven =
        said >= first && said <= top && (await registered(said)) && (said === first || !(await registered(said - 1)));
      if (!proven)
        throw proofRefused(
          this.client.url,
          "the wallet's registration",
          `the account is not first registered at topoheight ${said}, as it said`,
        );
      return said;
    }
    // Where the verified chain starts: the history is read from there, and the registration found in it as the
    // change of the range that adds the account. Searching for the registration block instead would show the daemon
    // which block that is, and its registrations are public: a handful of candidates for the account.
    return first;
  }

  async balanceChanges(
    scid: string,
    from: BalanceAt,
    to: BalanceAt,
    blocks: (topoheights: readonly number[]) => Promise<ChainBlock[]>,
  ): Promise<BalanceAt[]> {
    const read = (topoheight: number) => this.balanceOrZero(scid, topoheight);
    if (this.mode === 'trusted') {
      const { daemon, keys } = this.options;
      const listed =
        (await listBalanceChanges(daemon, keys.address, scid, from.topoheight, to.topoheight)) ??
        (await findBalanceChanges(read, from, to));
      return mapLimited(listed, PARALLEL_READS, async ({ topoheight, data }) => {
        const proven = await read(topoheight);
        if (proven !== data)
          throw proofRefused(
            this.client.url,
            `the wallet's balance change at topoheight ${topoheight}`,
            'the proven balance there is another',
          );
        return { topoheight, data };
      });
    }
    return this.privateChanges(scid, from, to, blocks);
  }

  /** In batches of BLOCKS_PER_BATCH blocks (two requests each), a few batches in flight. */
  async readBlocks(topoheights: readonly number[]): Promise<ChainBlock[]> {
    const { core, light, keys } = this.options;
    const batches: bigint[][] = [];
    for (let i = 0; i < topoheights.length; i += BLOCKS_PER_BATCH)
      batches.push(topoheights.slice(i, i + BLOCKS_PER_BATCH).map(BigInt));
    const read = await mapLimited(batches, PARALLEL_BATCHES, (batch) =>
      readVerifiedBlocks(this.client, core, light, batch),
    );
    return read.flat().map((block) => chainBlockOf(block, keys.network));
  }

  async balancesOf(wanted: readonly BalanceWanted[], topoheight: number): Promise<Map<string, string>> {
    const balances = new Map<string, string>();
    const byAsset = new Map<string, BalanceWanted[]>();
    for (const item of wanted) byAsset.set(item.scid, [...(byAsset.get(item.scid) ?? []), item]);
    for (const [scid, members] of byAsset) {
      const keys = members.map(({ address }) => decodeAddress(address).publicKey);
      const asset = fromHex(scid, 32);
      const at = BigInt(topoheight);
      const values =
        this.mode === 'private'
          ? await this.sendState.ringBalances(asset, keys, at)
          : await this.sendState.balancesByKey(asset, keys, at);
      members.forEach(({ address }, i) => {
        if (values[i]) balances.set(balanceKey(scid, address), toHex(values[i]));
      });
    }
    return balances;
  }

  /** The name's owner at the daemon's top, checked first: a name registered since the last run is found. */
  async nameOwner(name: string): Promise<string | undefined> {
    const owner = await this.state.nameOwner(name, BigInt((await this.top()).height));
    return owner && encodeAddress(this.options.keys.network, owner);
  }

  async contractText(scid: string, key: string): Promise<string | undefined> {
    const at = BigInt((await this.top()).height);
    const value = await this.state.contractVariable(fromHex(scid, 32), utf8ByteString(key), at);
    return typeof value === 'string' ? byteStringUtf8(value) : undefined;
  }

  status(): AccessStatus {
    const verified = this.options.light.top;
    return {
      mode: this.mode,
      daemon: this.options.daemon.url,
      privacySet: this.mode === 'private' ? this.k : null,
      verifiedHeight: verified ? Number(verified.height) : null,
    };
  }

  async checkDaemon(candidate: DaemonClient): Promise<void> {
    await this.options.light.sync(candidate);
  }

  close(): Promise<void> {
    return this.options.light.close();
  }

  /** The wallet's balance of an asset after a block, a token it never held being the implicit zero. */
  private async balanceOrZero(scid: string, topoheight: number): Promise<string | undefined> {
    return (await this.ownBalance(scid, topoheight)) ?? (scid === NATIVE_ASSET ? undefined : IMPLICIT_ZERO);
  }

  /**
   * The changes in (from, to] as the private mode finds them: the blocks in which the privacy range changed, read
   * whole, and the balance read at every one of them — the same reads whichever account of the range the wallet is
   * (reading only where the wallet may have changed would show the daemon which blocks those are).
   */
  private async privateChanges(
    scid: string,
    from: BalanceAt,
    to: BalanceAt,
    blocks: (topoheights: readonly number[]) => Promise<ChainBlock[]>,
  ): Promise<BalanceAt[]> {
    const asset = fromHex(scid, 32);
    const range = await this.state.rangeOf(asset, BigInt(to.topoheight));
    const query = { asset, range, from: BigInt(from.topoheight), to: BigInt(to.topoheight) };
    const changed = (await rangeChanges(this.client, this.options.core, this.options.light, query)).map(Number);
    await blocks(changed);
    const datas = await mapLimited(changed, PARALLEL_READS, (topoheight) => this.balanceOrZero(scid, topoheight));
    const changes: BalanceAt[] = [];
    let last = from.data;
    changed.forEach((topoheight, i) => {
      const data = datas[i] ?? last;
      if (data !== last) changes.push({ topoheight, data });
      last = data;
    });
    if (last !== to.data)
      throw proofRefused(
        this.client.url,
        `the wallet's balance of asset ${scid} up to topoheight ${to.topoheight}`,
        'its balance after the last change of its range is not its balance at the top',
      );
    return changes;
  }
}

/** The stored privacy ranges, when they were found for the same K and hold the wallet's key hash. */
function savedRanges(saved: unknown, k: number, keyhash: Uint8Array): Map<string, KeyRange> {
  const ranges = new Map<string, KeyRange>();
  const { privacySet, ranges: stored } = (
    typeof saved === 'object' && saved !== null ? saved : {}
  ) as Partial<SavedAccess>;
  if (privacySet !== k || typeof stored !== 'object' || stored === null) return ranges;
  for (const [asset, json] of Object.entries(stored)) {
    const range = privacyRangeFromJson(json, keyhash);
    if (range && /^[0-9a-f]{64}$/.test(asset)) ranges.set(asset, range);
  }
  return ranges;
}
