/**
 * The `fast` mode: the daemon's answers as they come, asked by the wallet's address (NODE.GetEncryptedBalance,
 * NODE.GetBalanceChanges — or, from a daemon without that listing, found by bisecting: balance-changes.ts), blocks
 * read by header and transaction calls (block-reader.ts). The simulator's wallets use it; it checks nothing.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import { findBalanceChanges, listBalanceChanges } from '../balance-changes.js';
import { readChainBlock, readChainBlocks } from '../block-reader.js';
import { IMPLICIT_ZERO, type ChainBlock } from '../block-scanner.js';
import { DaemonClientErrorCode, DaemonRpcError, type BalanceAt, type DaemonClient } from '../daemon-client.js';
import { mapLimited } from '../map-limited.js';
import { NATIVE_ASSET } from '../wallet-constants.js';
import { balanceKey, type AccessStatus, type BalanceWanted, type ChainAccess, type ChainTop } from './chain-access.js';
import { byteStringUtf8 } from '../../protocol/contract-values.js';

const PARALLEL_READS = 16;

export class DaemonAccess implements ChainAccess {
  readonly mode = 'fast';
  /** Whether the daemon lists balance changes (NODE.GetBalanceChanges): unknown until it is first asked. */
  private listsChanges: boolean | undefined;
  private lastHeight: number | null = null;

  constructor(
    private readonly daemon: DaemonClient,
    private readonly address: string,
  ) {}

  async top(): Promise<ChainTop> {
    const { height, topoheight, top_block_hash, treehash } = await this.daemon.getInfo();
    this.lastHeight = height;
    return { height, topoheight, hash: top_block_hash, stateRoot: treehash };
  }

  async headerHash(topoheight: number): Promise<string | undefined> {
    try {
      return (await this.daemon.blockHeaderByTopoHeight(topoheight)).hash;
    } catch (error) {
      if (error instanceof DaemonRpcError) return undefined;
      throw error;
    }
  }

  ownBalance(scid: string, topoheight: number): Promise<string | undefined> {
    return this.balanceOf(this.address, scid, topoheight);
  }

  async registration(): Promise<number> {
    return (await this.daemon.getEncryptedBalance(this.address, NATIVE_ASSET, -1)).registration;
  }

  async balanceChanges(scid: string, from: BalanceAt, to: BalanceAt): Promise<BalanceAt[]> {
    if (this.listsChanges !== false) {
      const listed = await listBalanceChanges(this.daemon, this.address, scid, from.topoheight, to.topoheight);
      this.listsChanges = listed !== undefined;
      if (listed) return listed;
    }
    // The native balance exists from the registration on; a token's is the implicit zero until it has an entry.
    const read = async (topoheight: number): Promise<string | undefined> =>
      (await this.ownBalance(scid, topoheight)) ?? (scid === NATIVE_ASSET ? undefined : IMPLICIT_ZERO);
    return findBalanceChanges(read, from, to);
  }

  /** In batches from a daemon known to list changes (an Umbra daemon), else a few single reads at a time. */
  readBlocks(topoheights: readonly number[]): Promise<ChainBlock[]> {
    if (this.listsChanges) return readChainBlocks(this.daemon, topoheights);
    return mapLimited(topoheights, PARALLEL_READS, (topoheight) => readChainBlock(this.daemon, topoheight));
  }

  async balancesOf(wanted: readonly BalanceWanted[], topoheight: number): Promise<Map<string, string>> {
    const balances = new Map<string, string>();
    await Promise.all(
      wanted.map(async ({ scid, address }) => {
        const data = await this.balanceOf(address, scid, topoheight);
        if (data !== undefined) balances.set(balanceKey(scid, address), data);
      }),
    );
    return balances;
  }

  async nameOwner(name: string): Promise<string | undefined> {
    try {
      return await this.daemon.nameToAddress(name);
    } catch (error) {
      if (error instanceof DaemonRpcError) return undefined;
      throw error;
    }
  }

  /** NODE.GetSC answers a String value as the hex of its bytes, a Uint64 as decimal text, a missing key in words. */
  async contractText(scid: string, key: string): Promise<string | undefined> {
    const { valuesstring } = await this.daemon.call<{ valuesstring?: string[] }>('NODE.GetSC', {
      scid,
      code: false,
      keysstring: [key],
    });
    const hex = valuesstring?.[0] ?? '';
    // Read as the proven modes read it: text that is not UTF-8 is no text.
    return /^(?:[0-9a-f]{2})+$/.test(hex) ? byteStringUtf8(Buffer.from(hex, 'hex').toString('latin1')) : undefined;
  }

  status(): AccessStatus {
    return { mode: this.mode, daemon: this.daemon.url, privacySet: null, verifiedHeight: this.lastHeight };
  }

  async checkDaemon(): Promise<void> {}

  saved(): undefined {
    return undefined;
  }

  async close(): Promise<void> {}

  /** An account's encrypted balance of an asset after a block, or undefined when it has no entry there. */
  private async balanceOf(address: string, scid: string, topoheight: number): Promise<string | undefined> {
    try {
      return (await this.daemon.getEncryptedBalance(address, scid, topoheight)).data;
    } catch (error) {
      if (UmbraError.is(error, DaemonClientErrorCode.AccountUnregistered)) return undefined;
      throw error;
    }
  }
}
