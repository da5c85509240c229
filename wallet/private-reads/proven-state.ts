/**
 * The wallet's reads of the state, each proven against the state root of a header the wallet verified
 * (docs/wallet.md § Private, proven reads): its own balance of an asset as one member of its privacy range (the range
 * read whole), its registration (the same, in the native coin's trie), a transfer's ring members (each by its key —
 * the ring is public once the transaction is — all of them in one shuffled batch, the wallet's own included),
 * contract variables and balances by key, and names. Nothing a daemon says is kept unless it proves.
 */
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { deserializeValue, serializeValue, utf8ByteString, type DvmValue } from '../../protocol/contract-values.js';
import { NAME_SERVICE_SCID } from '../../protocol/name-service.js';
import type { KeyRange } from '../../protocol/state/range-check.js';
import type { StateHashes } from '../../protocol/state/state-proof.js';
import { trieName } from '../../protocol/state/trie-names.js';
import { DEFAULT_PRIVACY_K, privacyRange } from './privacy-range.js';
import type { ProofClient } from './proof-client.js';
import { proofRefused } from './read-refusal.js';
import { onceEach, shuffled, TrieReader, type StateRootSource } from './trie-reader.js';

export const NATIVE_ASSET = new Uint8Array(32);

/** A registered name's owner: a 33-byte public key. */
const OWNER_KEY_BYTES = 33;

export interface ProvenStateOptions {
  hashes: StateHashes;
  /** The verified header chain (a LightClient). */
  roots: StateRootSource;
  /** The daemon's proven-read calls. */
  client: ProofClient;
  /** The wallet's public key (33 bytes, compressed). */
  publicKey: Uint8Array;
  /** Accounts a privacy range holds at least (default 256). */
  k?: number;
  /**
   * Privacy ranges by asset (hex), as the caller kept them from earlier syncs; a range found now is added, for the
   * caller to keep (privacyRangeToJson).
   */
  ranges?: Map<string, KeyRange>;
}

export class ProvenState {
  readonly reader: TrieReader;
  readonly keyhash: Uint8Array;
  readonly ranges: Map<string, KeyRange>;
  /** Own balances read, by asset and topoheight; only proven values are ever put here. */
  private readonly balances = new Map<string, Uint8Array | undefined>();

  constructor(private readonly options: ProvenStateOptions) {
    this.reader = new TrieReader(options.hashes, options.roots, options.client);
    this.keyhash = options.hashes.blake2s256(options.publicKey);
    this.ranges = options.ranges ?? new Map();
  }

  /** The wallet's privacy range in an asset's balance trie: the kept one, or found at `topoheight` and kept. */
  async rangeOf(asset: Uint8Array, topoheight: bigint): Promise<KeyRange> {
    const kept = this.ranges.get(toHex(asset));
    if (kept) return kept;
    const { hashes, k = DEFAULT_PRIVACY_K } = this.options;
    const { range } = await privacyRange(this.reader, hashes, { asset, keyhash: this.keyhash, topoheight, k });
    this.ranges.set(toHex(asset), range);
    return range;
  }

  /**
   * The wallet's encrypted balance of an asset after block `topoheight` (uvarint nonce height ‖ L ‖ R), read as one
   * leaf of its privacy range; undefined when it holds no entry there (not registered, or never held the token).
   */
  async ownBalance(asset: Uint8Array, topoheight: bigint): Promise<Uint8Array | undefined> {
    const cacheKey = `${toHex(asset)}:${topoheight}`;
    if (this.balances.has(cacheKey)) return this.balances.get(cacheKey);
    const range = await this.rangeOf(asset, topoheight);
    const what = `the privacy range of asset ${toHex(asset)}`;
    const leaves = await this.reader.readWhole({ trie: trieName('B', asset), range, what }, topoheight);
    const own = leaves.find((leaf) => equalBytes(leaf.key, this.options.publicKey))?.value;
    this.balances.set(cacheKey, own);
    return own;
  }

  /** Whether the wallet's account is registered after block `topoheight`: it has a native balance entry. */
  async isRegistered(topoheight: bigint): Promise<boolean> {
    return (await this.ownBalance(NATIVE_ASSET, topoheight)) !== undefined;
  }

  /**
   * The encrypted balances of accounts in an asset, in their order (undefined where a key holds none), each read by
   * its key: in one batch, in a random order. The daemon learns the keys (a daemon trusted with the account).
   */
  balancesByKey(asset: Uint8Array, members: readonly Uint8Array[], topoheight: bigint) {
    return this.reader.readKeys(trieName('B', asset), members, topoheight, 'the balance of ring member');
  }

  /**
   * The encrypted balances of a ring's members in an asset, in their order (undefined where a key holds none), each
   * found as the wallet finds its own privacy range — a walk down the trie to a range of at least K accounts, the
   * wallet's own key walked afresh like the others — all at once in a random order, an identical read asked once.
   * So the reads name no key nor a prefix narrower than K accounts, and every member is read alike.
   */
  async ringBalances(asset: Uint8Array, members: readonly Uint8Array[], topoheight: bigint) {
    const { hashes, k = DEFAULT_PRIVACY_K } = this.options;
    const reader = onceEach(this.reader);
    const values = new Array<Uint8Array | undefined>(members.length);
    const what = `the privacy range of a ring member in asset ${toHex(asset)}`;
    await Promise.all(
      shuffled(members.map((key, index) => ({ key, index }))).map(async ({ key, index }) => {
        const keyhash = hashes.blake2s256(key);
        const found = await privacyRange(reader, hashes, { asset, keyhash, topoheight, k });
        const leaves =
          found.leaves ??
          (await this.reader.readWhole({ trie: trieName('B', asset), range: found.range, what }, topoheight));
        values[index] = leaves.find((leaf) => equalBytes(leaf.key, key))?.value;
      }),
    );
    return values;
  }

  /** A contract's variable (undefined when unset) after block `topoheight`. */
  async contractVariable(scid: Uint8Array, key: DvmValue, topoheight: bigint): Promise<DvmValue | undefined> {
    const stored = serializeValue(key);
    const what = `contract ${toHex(scid)}'s variable`;
    const [value] = await this.reader.readKeys(trieName('C', scid), [stored], topoheight, what);
    if (value === undefined) return undefined;
    try {
      return deserializeValue(value);
    } catch (error) {
      const why = `the proven value is no contract value (${(error as Error).message})`;
      throw proofRefused(this.reader.url, `${what} ${toHex(stored)}`, why);
    }
  }

  /** A contract's balance of an asset (0 when it holds none) after block `topoheight`. */
  async contractBalance(scid: Uint8Array, asset: Uint8Array, topoheight: bigint): Promise<bigint> {
    const what = `contract ${toHex(scid)}'s balance of asset`;
    const [value] = await this.reader.readKeys(trieName('D', scid), [asset], topoheight, what);
    if (value === undefined) return 0n;
    if (value.length !== 8)
      throw proofRefused(this.reader.url, `${what} ${toHex(asset)}`, 'the proven value is not an 8-byte amount');
    return Buffer.from(value).readBigUInt64BE();
  }

  /** The public key that owns a registered name after block `topoheight`; undefined when the name is free. */
  async nameOwner(name: string, topoheight: bigint): Promise<Uint8Array | undefined> {
    const owner = await this.contractVariable(NAME_SERVICE_SCID, utf8ByteString(name), topoheight);
    if (typeof owner !== 'string' || owner.length !== OWNER_KEY_BYTES) return undefined;
    return Uint8Array.from(Buffer.from(owner, 'latin1'));
  }
}
