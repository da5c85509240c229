/**
 * JSON-RPC 2.0 processing for one registry, independent of the transport: parsing, batches, notifications,
 * validation, error mapping. An UmbraError (a failure a service reports on purpose) is answered with -32098, its
 * message, and its code (with any details) in `data`; handlers' unexpected errors are logged and answered with
 * -32603, never a stack trace, and so is a NodeFault (a damaged store, a bug's guard), its code kept in `data`.
 * Synchronous handlers are answered synchronously (no promise per request): this is the daemon's hot path.
 * Integers beyond 2^53 are read and written exactly, as bigints (protocol/exact-json.ts).
 */
import {
  createJSONRPCErrorResponse,
  createJSONRPCSuccessResponse,
  type JSONRPCID,
  type JSONRPCResponse,
} from 'json-rpc-2.0';
import { NodeFault, UmbraError } from '../../core-native/ts/errors.js';
import type { Logger } from '../logger.js';
import { answeredErrorCode, InvalidParamsError, RpcDataCode, RpcError, RpcErrorCode } from './errors.js';
import { parseExactJson, stringifyExactJson } from '../../protocol/exact-json.js';
import type { MethodRegistry, RpcCallContext, RpcMethod } from './registry.js';
import { MAX_PARAMS_DEPTH, nestedDeeperThan } from './nesting-depth.js';

type Answer = JSONRPCResponse | null;
type MaybePromise<T> = T | Promise<T>;

/** A bigint id is an integer beyond 2^53 (see protocol/exact-json.ts); it is echoed with all its digits. */
const isId = (id: unknown): id is JSONRPCID =>
  id === null || typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isFinite(id));
const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => typeof (value as Promise<T>)?.then === 'function';
/** The most calls one batch may hold (as geth allows). */
export const MAX_BATCH_CALLS = 1000;
/** The largest answer a batch may build, in bytes of UTF-8 JSON (as geth's 25 MB). */
export const MAX_BATCH_ANSWER_BYTES = 25_000_000;
/** How long a batch runs before it lets other clients in. */
const BATCH_SLICE_MS = 5;
const serialise = (answer: JSONRPCResponse | null): string | null =>
  answer === null ? null : stringifyExactJson(answer);

const TOO_DEEP = `invalid params: nested more than ${MAX_PARAMS_DEPTH} levels deep`;
const parseError = (error: unknown): JSONRPCResponse =>
  createJSONRPCErrorResponse(null, RpcErrorCode.ParseError, `parse error: ${(error as Error).message}`);

/**
 * The answer to a text that did not parse. Keeping big integers exact walks the parsed value recursively (JSON.parse
 * itself does not), so valid JSON nested thousands of levels deep can exhaust the stack there: it is refused as too
 * deep, as params are, with the id of a single request when a plain parse reads it exactly.
 */
function unparsedAnswer(text: string, error: unknown): JSONRPCResponse {
  if (!(error instanceof RangeError)) return parseError(error);
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    const echoed = typeof id === 'string' || Number.isSafeInteger(id) ? (id as JSONRPCID) : null;
    return createJSONRPCErrorResponse(echoed, RpcErrorCode.InvalidParams, TOO_DEEP, {
      code: RpcDataCode.InvalidParams,
    });
  } catch (plainError) {
    return parseError(plainError);
  }
}

export class JsonRpcDispatcher {
  constructor(
    private readonly registry: MethodRegistry,
    private readonly logger: Logger,
  ) {}

  /** Handles one message body; returns the response text, or null when nothing is to be answered (notifications). */
  handleText(text: string, context: RpcCallContext): MaybePromise<string | null> {
    let message: unknown;
    try {
      message = parseExactJson(text);
    } catch (error) {
      return JSON.stringify(unparsedAnswer(text, error));
    }
    if (Array.isArray(message)) return this.handleBatch(message, context);
    const answer = this.handleRequest(message, context);
    return isPromise(answer) ? answer.then(serialise) : serialise(answer);
  }

  /**
   * A batch (docs/rpc.md § Batches): at most MAX_BATCH_CALLS calls, run one after another with the event loop let in
   * every few milliseconds so that other clients are answered meanwhile, and an answer of at most
   * MAX_BATCH_ANSWER_BYTES — past it the work stops and the whole batch is answered with one error.
   */
  private async handleBatch(batch: unknown[], context: RpcCallContext): Promise<string | null> {
    const refuse = (message: string): string =>
      JSON.stringify(createJSONRPCErrorResponse(null, RpcErrorCode.InvalidRequest, `invalid request: ${message}`));
    if (batch.length === 0) return refuse('empty batch');
    if (batch.length > MAX_BATCH_CALLS)
      return refuse(`a batch holds at most ${MAX_BATCH_CALLS} calls, this one has ${batch.length}; split it`);
    const answers: string[] = [];
    let size = 2;
    let sliceStarted = performance.now();
    for (const request of batch) {
      if (performance.now() - sliceStarted > BATCH_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      const pending = this.handleRequest(request, context);
      const answer = isPromise(pending) ? await pending : pending; // a synchronous call costs no microtask
      if (answer === null) continue;
      const text = stringifyExactJson(answer);
      size += Buffer.byteLength(text) + 1;
      if (size > MAX_BATCH_ANSWER_BYTES)
        return refuse(
          `the batch's answer would exceed ${MAX_BATCH_ANSWER_BYTES / 1_000_000} MB (after ${answers.length} of its ${batch.length} calls); ask for less at once`,
        );
      answers.push(text);
    }
    return answers.length > 0 ? `[${answers.join(',')}]` : null;
  }

  private handleRequest(request: unknown, context: RpcCallContext): MaybePromise<Answer> {
    const problem = requestProblem(request);
    if (problem) {
      const id =
        typeof request === 'object' && request !== null && isId((request as { id?: unknown }).id)
          ? (request as { id: JSONRPCID }).id
          : null;
      return createJSONRPCErrorResponse(id, RpcErrorCode.InvalidRequest, `invalid request: ${problem}`);
    }
    const { id, method: name, params } = request as { id?: JSONRPCID; method: string; params?: unknown };
    const isNotification = !Object.hasOwn(request as object, 'id');
    const succeed = (result: unknown): Answer =>
      isNotification ? null : createJSONRPCSuccessResponse(id as JSONRPCID, result ?? null);
    const fail = (error: unknown): Answer => {
      if (!isNotification) return this.errorResponse(id as JSONRPCID, name, error);
      this.logger.debug(`notification ${name} failed: ${(error as Error).message}`);
      return null;
    };
    // Calls are timed only for an observer (metrics): an unobserved call pays one property read.
    const observer = this.registry.callObserver;
    let method: RpcMethod | undefined;
    let started = 0;
    const observe =
      observer &&
      ((error?: unknown): void =>
        observer(
          method?.name,
          method ? (performance.now() - started) / 1000 : 0,
          error === undefined ? undefined : { code: answeredErrorCode(error) },
        ));
    try {
      method = this.registry.resolve(name);
      if (!method) throw new RpcError(RpcErrorCode.MethodNotFound, `method not found: ${name}`, name);
      if (nestedDeeperThan(params, MAX_PARAMS_DEPTH)) throw new InvalidParamsError(TOO_DEEP);
      if (observe) started = performance.now();
      const result = method.handler(method.params(params, 'params'), context);
      if (!isPromise(result)) {
        observe?.();
        return succeed(result);
      }
      if (!observe) return result.then(succeed, fail);
      return result.then(
        (value) => {
          observe();
          return succeed(value);
        },
        (error: unknown) => {
          observe(error);
          return fail(error);
        },
      );
    } catch (error) {
      observe?.(error);
      return fail(error);
    }
  }

  private errorResponse(id: JSONRPCID, method: string, error: unknown): JSONRPCResponse {
    const code = answeredErrorCode(error);
    if (error instanceof RpcError) return createJSONRPCErrorResponse(id, code, error.message, error.data);
    if (error instanceof NodeFault) {
      this.logger.error(`${method} failed: ${error.stack ?? error.message}`);
      return createJSONRPCErrorResponse(id, code, `internal error while running ${method}`, {
        code: error.code,
      });
    }
    if (error instanceof UmbraError)
      return createJSONRPCErrorResponse(id, code, error.message, {
        ...error.details,
        code: error.code,
      });
    this.logger.error(`${method} failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`);
    return createJSONRPCErrorResponse(id, code, `internal error while running ${method}`);
  }
}

/** What makes `request` not a JSON-RPC 2.0 request object, or null when it is one. */
function requestProblem(request: unknown): string | null {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return 'a request must be a JSON object';
  const r = request as Record<string, unknown>;
  if (r['jsonrpc'] !== '2.0') return `'jsonrpc' must be "2.0"`;
  if (typeof r['method'] !== 'string' || r['method'] === '') return `'method' must be a non-empty string`;
  if (Object.hasOwn(r, 'id') && !isId(r['id'])) return `'id' must be a string, a number or null`;
  if (r['params'] !== undefined && typeof r['params'] !== 'object') return `'params' must be an object or an array`;
  return null;
}
