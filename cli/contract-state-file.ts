/**
 * `umbra contract run --state FILE`: one contract's store, balances, code (once UPDATE_SC_CODE replaced it), id and
 * block height kept in a JSON file from run to run, so that Initialize → Lottery → Lottery plays like on a chain.
 * Each run is the next block (height + 1) unless --height says; the timestamp stays until --timestamp moves it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { RunResponse } from './contract-runner.js';
import { RunRequestError } from './contract-runner.js';
import { readFile, type RunRequest } from './contract-request.js';
import { ContractSession, type CallOptions, type ContractRunner, type SessionState } from './contract-session.js';

interface SavedState extends SessionState {
  height: string;
  timestamp: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class StateFile {
  private readonly saved: SavedState | undefined;
  private height = 0n;
  private timestamp = 0n;

  /** Reads the file unless `reset` or it does not exist yet. */
  constructor(
    readonly path: string,
    reset: boolean,
  ) {
    if (reset || !existsSync(path)) return;
    let state: unknown;
    try {
      state = JSON.parse(readFile(path, 'state file'));
    } catch (error) {
      if (error instanceof RunRequestError) throw error;
      throw new RunRequestError(`state file ${path} is not valid JSON (--reset starts afresh)`);
    }
    const fine =
      isObject(state) &&
      typeof state.scid === 'string' &&
      Array.isArray(state.store) &&
      isObject(state.balances) &&
      /^[0-9]+$/.test(String(state.height)) &&
      /^[0-9]+$/.test(String(state.timestamp)) &&
      (state.code === undefined || typeof state.code === 'string');
    if (!fine) throw new RunRequestError(`state file ${path} is not a contract state (--reset starts afresh)`);
    this.saved = state as unknown as SavedState;
    this.height = BigInt(this.saved.height);
    this.timestamp = BigInt(this.saved.timestamp);
  }

  /** Runs the request on the kept state and saves what the call left; the store and balances come from the file. */
  run(runner: ContractRunner, request: RunRequest, defaultScid: (code: string) => string): RunResponse {
    const env = request.env ?? {};
    if (request.store !== undefined || (isObject(env.balances) && Object.keys(env.balances).length > 0))
      throw new RunRequestError('--state keeps the store and balances itself: leave out --store and --balance');
    if (typeof request.code !== 'string') throw new RunRequestError('code must be the contract source as a string');
    if (typeof request.entrypoint !== 'string') throw new RunRequestError('entrypoint must name a function');
    const scid = (env.scid as string | undefined) ?? this.saved?.scid ?? defaultScid(request.code);
    if (this.saved && this.saved.scid !== scid)
      throw new RunRequestError(`state file ${this.path} holds contract ${this.saved.scid}, not ${scid} (--reset)`);
    const session = new ContractSession(runner, request.code, scid);
    if (this.saved) session.restore(this.saved);
    const number = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));
    const uint = (v: unknown, what: string): bigint => {
      if (!/^[0-9]+$/.test(String(v))) throw new RunRequestError(`${what} must be a whole number`);
      return BigInt(String(v));
    };
    this.height = env.height === undefined ? this.height + 1n : uint(env.height, 'the height');
    if (env.timestamp !== undefined) this.timestamp = uint(env.timestamp, 'the timestamp');
    const options: CallOptions = {
      signer: env.signer as string | undefined,
      coinvalue: number(env.coinvalue),
      assets: env.assets as Record<string, string> | undefined,
      args: request.args as CallOptions['args'],
      height: this.height,
      timestamp: this.timestamp,
      txid: env.txid as string | undefined,
      blid: env.blid as string | undefined,
      fee: number(env.fee),
    };
    const response = session.call(request.entrypoint, options);
    const saved: SavedState = { ...session.save(), height: String(this.height), timestamp: String(this.timestamp) };
    writeFileSync(this.path, `${JSON.stringify(saved, null, 2)}\n`);
    return response;
  }

  /** The code a committed UPDATE_SC_CODE put in place of the file's, which runs instead of it. */
  get replacedCode(): string | undefined {
    return this.saved?.code;
  }

  get blockHeight(): bigint {
    return this.height;
  }
}
