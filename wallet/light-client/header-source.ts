/**
 * A daemon's headers as the light client reads them (NODE.GetHeaders, docs/rpc.md § NODE.GetHeaders): each answer is
 * checked for shape — no more blocks than asked for, hex that decodes, every id the SHA3-256 of its block — before
 * anything looks at its blocks; whether they follow the rules is the verifier's business.
 */
import type { Core } from '../../core-native/ts/core.js';
import { MAX_BLOCK_BYTES } from '../../protocol/block.js';
import { equalBytes, fromHex, isWholeBytesHex } from '../../protocol/bytes.js';
import { DaemonClientErrorCode, DaemonRpcError, type DaemonClient } from '../daemon-client.js';
import { daemonFailure, WalletError, WalletErrorCode } from '../wallet-error.js';
import { answerRefused } from './header-refusals.js';

/** Blocks asked for per call: the daemon's limit. */
export const HEADERS_PER_CALL = 1000;

export interface ServedHeader {
  topoheight: bigint;
  id: Uint8Array;
  bytes: Uint8Array;
  /** What the daemon says of the block's difficulty and the chain's work through it (trusted only at a checkpoint). */
  difficulty: bigint;
  cumulativeWork: bigint;
}

export interface ServedHeaders {
  headers: ServedHeader[];
  /** The daemon's top topoheight when it answered. */
  top: bigint;
}

interface Answer {
  headers?: unknown;
  top_topoheight?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isDecimal = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{1,80}$/.test(value);

export class HeaderSource {
  constructor(
    private readonly core: Core,
    private readonly daemon: DaemonClient,
  ) {}

  get url(): string {
    return this.daemon.url;
  }

  /** Up to `count` main-chain blocks from `topoheight` on (fewer when the daemon's chain or answer ends sooner). */
  async fetch(topoheight: bigint, count: number): Promise<ServedHeaders> {
    let answer: unknown;
    try {
      answer = await this.daemon.call('NODE.GetHeaders', { topoheight: Number(topoheight), count });
    } catch (error) {
      throw this.failure(error);
    }
    const { headers, top_topoheight: top } = (isRecord(answer) ? answer : {}) as Answer;
    if (!Array.isArray(headers) || !Number.isSafeInteger(top) || (top as number) < 0)
      throw answerRefused(this.url, 'answered NODE.GetHeaders without a header list and its top topoheight');
    if (headers.length > count)
      throw answerRefused(this.url, `answered ${headers.length} headers where at most ${count} were asked for`);
    return {
      headers: headers.map((header, i) => this.served(header, topoheight + BigInt(i))),
      top: BigInt(top as number),
    };
  }

  /** Exactly `count` blocks from `topoheight` on, asking again while answers come short; fewer only if the daemon stops. */
  async fetchAll(topoheight: bigint, count: number): Promise<ServedHeaders> {
    const collected: ServedHeader[] = [];
    let top = -1n;
    while (collected.length < count) {
      const answer = await this.fetch(topoheight + BigInt(collected.length), count - collected.length);
      top = answer.top;
      if (answer.headers.length === 0) break;
      collected.push(...answer.headers);
    }
    return { headers: collected, top };
  }

  private served(header: unknown, topoheight: bigint): ServedHeader {
    const { hash, blob, difficulty, cumulative_difficulty: work } = isRecord(header) ? header : {};
    if (
      typeof hash !== 'string' ||
      !/^[0-9a-fA-F]{64}$/.test(hash) ||
      typeof blob !== 'string' ||
      !isWholeBytesHex(blob) ||
      blob.length > 2 * MAX_BLOCK_BYTES ||
      !isDecimal(difficulty) ||
      !isDecimal(work)
    )
      throw answerRefused(this.url, `answered a malformed header at topoheight ${topoheight}`);
    const bytes = fromHex(blob);
    const id = this.core.sha3_256(bytes);
    if (!equalBytes(id, fromHex(hash)))
      throw answerRefused(
        this.url,
        `served a block at topoheight ${topoheight} whose id is not ${hash.toLowerCase()}, the hash it gave`,
      );
    return { topoheight, id, bytes, difficulty: BigInt(difficulty), cumulativeWork: BigInt(work) };
  }

  private failure(error: unknown): unknown {
    if (error instanceof DaemonRpcError && error.code === DaemonClientErrorCode.Unsupported)
      return new WalletError(
        WalletErrorCode.DaemonRefused,
        `the daemon at ${this.url} does not offer NODE.GetHeaders (an Umbra extension), so its headers cannot be checked`,
      );
    if (error instanceof DaemonRpcError)
      return new WalletError(
        WalletErrorCode.DaemonRefused,
        `the daemon at ${this.url} refused NODE.GetHeaders: ${error.message}`,
      );
    return daemonFailure(error);
  }
}
