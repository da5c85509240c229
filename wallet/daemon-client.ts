/**
 * The wallet's line to its daemon: JSON-RPC 2.0 over HTTP (`POST <daemon>/json_rpc`). A daemon that cannot be
 * reached, or answers with something other than JSON-RPC, is a DaemonUnavailableError; an error the daemon answers
 * with is a DaemonRpcError carrying its JSON-RPC code, message and `data`, classified once by the daemon's error code
 * in `data.code` (`daemonErrorCode`) so that callers recognise a failure by its `code` (e.g.
 * DaemonClientErrorCode.AccountUnregistered), never by its text.
 */
import type { ContractCallOutcome } from '../protocol/contract-outcome.js';
import { stringifyExactJson } from '../protocol/exact-json.js';
import { rpcArgumentToExactJson, type RpcArgument } from '../protocol/rpc-arguments.js';
import { UmbraError } from '../core-native/ts/errors.js';
import { QueryErrorCode } from '../protocol/query-errors.js';
import { TransactionErrorCode } from '../protocol/transaction-errors.js';
import { HttpTimeoutError, postText, type HttpAnswer } from './http-post.js';

export enum DaemonClientErrorCode {
  /** The daemon address is neither host:port nor an http(s) URL. */
  BadAddress = 'daemon-client.bad-address',
  /** The daemon cannot be reached, or answers with something other than JSON-RPC. */
  Unavailable = 'daemon-client.unavailable',
  /** The account has no balance entry in the asset asked for (not registered, or never held the token). */
  AccountUnregistered = 'daemon-client.account-unregistered',
  /** The daemon's pool already holds a registration of this key. */
  RegistrationPending = 'daemon-client.registration-pending',
  /** NODE.GetGasEstimate ran the contract call and it would not commit. */
  ContractCallWouldFail = 'daemon-client.contract-call-would-fail',
  /** The daemon does not offer the method (an extension a reference daemon lacks). */
  Unsupported = 'daemon-client.unsupported',
  /** Any other error the daemon answered with. */
  Refused = 'daemon-client.refused',
}

export class DaemonClientError extends UmbraError<DaemonClientErrorCode> {
  override readonly name: string = 'DaemonClientError';
}

export class DaemonUnavailableError extends DaemonClientError {
  override readonly name = 'DaemonUnavailableError';
  constructor(message: string) {
    super(DaemonClientErrorCode.Unavailable, message);
  }
}

const METHOD_NOT_FOUND = -32601;

/** The daemon's error codes (docs/rpc.md § Error codes) the wallet acts on. */
const ACTED_ON: ReadonlyMap<string, DaemonClientErrorCode> = new Map([
  [QueryErrorCode.AccountUnregistered, DaemonClientErrorCode.AccountUnregistered],
  [TransactionErrorCode.RegistrationPending, DaemonClientErrorCode.RegistrationPending],
  [QueryErrorCode.CallWouldFail, DaemonClientErrorCode.ContractCallWouldFail],
]);

/** What an error answer of the daemon means, from its JSON-RPC code and the error code in its `data`. */
export function daemonErrorCode(rpcCode: number, daemonCode: string | undefined): DaemonClientErrorCode {
  if (rpcCode === METHOD_NOT_FOUND) return DaemonClientErrorCode.Unsupported;
  return (daemonCode !== undefined && ACTED_ON.get(daemonCode)) || DaemonClientErrorCode.Refused;
}

/** An error answer's `data`: the daemon's error code and the details beside it (e.g. `failure`); {} without them. */
export interface DaemonErrorData {
  code?: string;
  readonly [detail: string]: unknown;
}

const errorData = (data: unknown): DaemonErrorData => {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const { code, ...details } = data as Record<string, unknown>;
  return typeof code === 'string' ? { ...details, code } : details;
};

export class DaemonRpcError extends DaemonClientError {
  override readonly name = 'DaemonRpcError';
  /** The answer's `data`, read as an object (other data, e.g. an unknown method's name, is left out). */
  readonly data: DaemonErrorData;

  constructor(
    /** The daemon's JSON-RPC error code. */
    readonly rpcCode: number,
    message: string,
    data?: unknown,
  ) {
    const read = errorData(data);
    super(daemonErrorCode(rpcCode, read.code), message);
    this.data = read;
  }
}

/** NODE.GetHeight's result. */
export interface DaemonHeight {
  height: number;
  stableheight: number;
  topoheight: number;
}

/** NODE.GetEncryptedBalance's result (the fields the wallet reads). */
export interface EncryptedBalanceRecord {
  scid: string;
  /** Hex of uvarint(nonce height) ‖ compressed L ‖ compressed R. */
  data: string;
  registration: number;
  height: number;
  topoheight: number;
}

/** An account's encrypted balance of an asset after block `topoheight` ('' where it holds none). */
export interface BalanceAt {
  topoheight: number;
  data: string;
}

/** NODE.GetBalanceChanges's result: the changes in (from, `to_topoheight`], all of them when `complete`. */
export interface BalanceChangesRecord {
  changes: BalanceAt[];
  to_topoheight: number;
  complete: boolean;
}

/** One call of a JSON-RPC batch. */
export interface BatchCall {
  method: string;
  params?: unknown;
}

/** NODE.GetInfo's result (the fields the wallet reads). */
export interface DaemonInfo {
  height: number;
  topoheight: number;
  top_block_hash: string;
  treehash: string;
  /** `mainnet`, `testnet` or `simulator`. */
  network: string;
}

/** One record of NODE.GetTransaction (the fields the wallet reads). */
export interface TransactionRecord {
  in_pool: boolean;
  valid_block: string;
  block_height: number;
  /** A mined contract transaction's outcome (an Umbra extension). */
  sc_outcome?: ContractCallOutcome;
}

/** A block header as NODE.GetBlockHeaderByTopoHeight gives it (the fields the wallet reads). */
export interface BlockHeaderRecord {
  hash: string;
  height: number;
  topoheight: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
  txcount: number;
  /** The block reward without fees. */
  reward: number;
  /** Per miniblock: the miner's key hash (32 hex), or for the final one the integrator's address. */
  miners: string[] | null;
}

/** One record of NODE.GetTransaction with the transaction itself and its rings. */
export interface FullTransactionRecord extends TransactionRecord {
  as_hex: string;
  ring: string[][] | null;
}

/** What NODE.GetGasEstimate runs: a contract transaction's arguments (an install with SC_CODE, or a call). */
export interface GasEstimateRequest {
  scRpc: RpcArgument[];
  /** The deposits: a burn per asset (64 hex; zeros for the native coin). */
  deposits: { scid: string; burn: bigint }[];
  /** The address the contract sees as SIGNER(); absent: anonymous. */
  signer?: string;
  /** The transaction's fee, the call's storage-gas limit; absent: no limit. */
  fee?: bigint;
}

/** NODE.GetGasEstimate's result. */
export interface GasEstimate {
  gascompute: number;
  gasstorage: number;
}

/** `host:port` or an `http(s)://` URL, as the JSON-RPC URL `…/json_rpc`. */
export function daemonRpcUrl(address: string): string {
  const base = /^https?:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new DaemonClientError(
      DaemonClientErrorCode.BadAddress,
      `daemon address must be host:port or an http(s) URL, got ${JSON.stringify(address)}`,
    );
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/json_rpc';
  return url.href;
}

interface RpcAnswer<T> {
  id?: unknown;
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** How long a daemon call may take before the daemon counts as unavailable. */
const TIMEOUT_MS = 30_000;

export class DaemonClient {
  /** Where the calls go: the JSON-RPC URL without credentials, and HTTP Basic credentials from `user:pass@`. */
  private target: { url: string; authorization?: string };
  private nextId = 1;

  constructor(address: string) {
    const url = new URL(daemonRpcUrl(address));
    let authorization: string | undefined;
    if (url.username !== '' || url.password !== '') {
      const login = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      authorization = `Basic ${Buffer.from(login, 'utf8').toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    this.target = { url: url.href, ...(authorization === undefined ? {} : { authorization }) };
  }

  /** The JSON-RPC URL, without credentials (it is shown in messages). */
  get url(): string {
    return this.target.url;
  }

  /**
   * Sends every later call to the daemon `other` reaches: the wallet's parts all hold this client, so they all move
   * with it (the web wallet's change of daemon, once the new one is checked).
   */
  moveTo(other: DaemonClient): void {
    this.target = other.target;
  }

  async call<T>(method: string, params?: unknown): Promise<T> {
    const answer = (await this.post(this.request(method, params))) as RpcAnswer<T>;
    if (answer.error) throw new DaemonRpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as T;
  }

  /**
   * Several calls in one JSON-RPC batch (at most 1000, as the daemon takes them), answered in order; a call the
   * daemon refused is its DaemonRpcError in the results.
   */
  async batch<T>(calls: readonly BatchCall[]): Promise<(T | DaemonRpcError)[]> {
    if (calls.length === 0) return [];
    const requests = calls.map(({ method, params }) => this.request(method, params));
    const answers = await this.post(requests);
    if (!Array.isArray(answers) || answers.length !== calls.length)
      throw new DaemonUnavailableError(`the daemon at ${this.url} answered a batch of ${calls.length} calls wrongly`);
    const byId = new Map((answers as RpcAnswer<T>[]).map((answer) => [answer.id, answer]));
    return requests.map(({ id }) => {
      const answer = byId.get(id);
      if (!answer) throw new DaemonUnavailableError(`the daemon at ${this.url} left call ${id} of a batch unanswered`);
      return answer.error
        ? new DaemonRpcError(answer.error.code, answer.error.message, answer.error.data)
        : (answer.result as T);
    });
  }

  private request(method: string, params: unknown): { jsonrpc: '2.0'; id: number; method: string; params?: unknown } {
    return { jsonrpc: '2.0', id: this.nextId++, method, ...(params === undefined ? {} : { params }) };
  }

  /** Posts a request (or a batch) and reads the JSON answer. */
  private async post(body: unknown): Promise<unknown> {
    let answer: HttpAnswer;
    try {
      answer = await postText(
        this.url,
        stringifyExactJson(body),
        {
          'Content-Type': 'application/json',
          ...(this.target.authorization === undefined ? {} : { Authorization: this.target.authorization }),
        },
        TIMEOUT_MS,
      );
    } catch (error) {
      const reason =
        error instanceof HttpTimeoutError
          ? error.message
          : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      throw new DaemonUnavailableError(`cannot reach the daemon at ${this.url}: ${reason}`);
    }
    if (answer.status === 401)
      throw new DaemonUnavailableError(
        `the daemon at ${this.url} wants a login (HTTP 401): give it as http://USER:PASS@HOST:PORT in the daemon address`,
      );
    try {
      return JSON.parse(answer.text);
    } catch {
      throw new DaemonUnavailableError(
        `the daemon at ${this.url} answered HTTP ${answer.status} without JSON-RPC: ${answer.text.slice(0, 80).trim()}`,
      );
    }
  }

  getHeight(): Promise<DaemonHeight> {
    return this.call('NODE.GetHeight');
  }

  getInfo(): Promise<DaemonInfo> {
    return this.call('NODE.GetInfo');
  }

  /** The encrypted balance of `address` in asset `scid` (64 hex; zeros for the native coin) at a topoheight (-1: latest). */
  getEncryptedBalance(address: string, scid: string, topoheight = -1): Promise<EncryptedBalanceRecord> {
    return this.call('NODE.GetEncryptedBalance', { address, scid, topoheight });
  }

  /**
   * The topoheights in (from, to] after which the account's encrypted balance of `scid` changed, with the balance
   * there (NODE.GetBalanceChanges, an Umbra extension: DaemonClientErrorCode.Unsupported from other daemons).
   */
  getBalanceChanges(address: string, scid: string, from: number, to: number): Promise<BalanceChangesRecord> {
    return this.call('NODE.GetBalanceChanges', { address, scid, from_topoheight: from, to_topoheight: to });
  }

  /** Registered addresses (or holders of asset `scid`) to fill rings with. */
  async getRandomAddress(scid?: string): Promise<string[]> {
    return (await this.call<{ address: string[] }>('NODE.GetRandomAddress', scid === undefined ? {} : { scid }))
      .address;
  }

  /** The address that owns a registered name. */
  async nameToAddress(name: string): Promise<string> {
    return (await this.call<{ address: string }>('NODE.NameToAddress', { name, topoheight: -1 })).address;
  }

  /** Submits a transaction; the daemon's txid. */
  async sendRawTransaction(bytes: Uint8Array): Promise<string> {
    return (
      await this.call<{ txid: string }>('NODE.SendRawTransaction', { tx_as_hex: Buffer.from(bytes).toString('hex') })
    ).txid;
  }

  /** A block's timestamp (milliseconds since the epoch). */
  async blockTimestamp(hash: string): Promise<number> {
    return (await this.call<{ block_header: { timestamp: number } }>('NODE.GetBlockHeaderByHash', { hash }))
      .block_header.timestamp;
  }

  async blockHeaderByTopoHeight(topoheight: number): Promise<BlockHeaderRecord> {
    return (await this.call<{ block_header: BlockHeaderRecord }>('NODE.GetBlockHeaderByTopoHeight', { topoheight }))
      .block_header;
  }

  /** The transaction hashes of a block. */
  async blockTxHashes(hash: string): Promise<string[]> {
    const { json } = await this.call<{ json: string }>('NODE.GetBlock', { hash });
    return (JSON.parse(json) as { tx_hashes: string[] }).tx_hashes;
  }

  /** Records of several transactions, in order (at most 1000). */
  async getTransactions(txids: string[]): Promise<FullTransactionRecord[]> {
    return (await this.call<{ txs: FullTransactionRecord[] }>('NODE.GetTransaction', { txs_hashes: txids })).txs;
  }

  /** Runs an install or call against the latest state, keeping nothing; its gas, or the reason it would fail. */
  getGasEstimate(request: GasEstimateRequest): Promise<GasEstimate> {
    return this.call('NODE.GetGasEstimate', {
      sc_rpc: request.scRpc.map(rpcArgumentToExactJson),
      transfers: request.deposits,
      ...(request.signer === undefined ? {} : { signer: request.signer }),
      ...(request.fee === undefined ? {} : { fee: request.fee }),
    });
  }

  async getTransaction(txid: string): Promise<TransactionRecord> {
    return (await this.call<{ txs: TransactionRecord[] }>('NODE.GetTransaction', { txs_hashes: [txid] })).txs[0]!;
  }
}
