/**
 * JSON-RPC 2.0 processing for one registry, independent of the transport: parsing, batches, notifications,
 * validation, error mapping. Handlers' unexpected errors are logged and answered with -32603, never a stack trace.
 */
import { createJSONRPCErrorResponse, createJSONRPCSuccessResponse, type JSONRPCID, type JSONRPCResponse } from 'json-rpc-2.0';
import type { Logger } from '../logger.js';
import { RpcError, RpcErrorCode } from './errors.js';
import type { MethodRegistry, RpcCallContext } from './registry.js';

const isId = (id: unknown): id is JSONRPCID => id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

export class JsonRpcDispatcher {
  constructor(
    private readonly registry: MethodRegistry,
    private readonly logger: Logger,
  ) {}

  /** Handles one message body; returns the response text, or null when nothing is to be answered (notifications). */
  async handleText(text: string, context: RpcCallContext): Promise<string | null> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return JSON.stringify(createJSONRPCErrorResponse(null, RpcErrorCode.ParseError, `parse error: ${(error as Error).message}`));
    }
    const response = await this.handleMessage(message, context);
    return response === null ? null : JSON.stringify(response);
  }

  /** Handles a parsed message: one request or a batch. */
  async handleMessage(message: unknown, context: RpcCallContext): Promise<JSONRPCResponse | JSONRPCResponse[] | null> {
    if (!Array.isArray(message)) return this.handleRequest(message, context);
    if (message.length === 0) return createJSONRPCErrorResponse(null, RpcErrorCode.InvalidRequest, 'invalid request: empty batch');
    const responses = await Promise.all(message.map((request) => this.handleRequest(request, context)));
    const answered = responses.filter((r): r is JSONRPCResponse => r !== null);
    return answered.length > 0 ? answered : null;
  }

  private async handleRequest(request: unknown, context: RpcCallContext): Promise<JSONRPCResponse | null> {
    const problem = requestProblem(request);
    if (problem) {
      const id = typeof request === 'object' && request !== null && isId((request as { id?: unknown }).id) ? (request as { id: JSONRPCID }).id : null;
      return createJSONRPCErrorResponse(id, RpcErrorCode.InvalidRequest, `invalid request: ${problem}`);
    }
    const { id, method: name, params } = request as { id?: JSONRPCID; method: string; params?: unknown };
    const isNotification = !Object.hasOwn(request as object, 'id');
    try {
      const method = this.registry.resolve(name);
      if (!method) throw new RpcError(RpcErrorCode.MethodNotFound, `method not found: ${name}`, name);
      const result = await method.handler(method.params(params, 'params'), context);
      return isNotification ? null : createJSONRPCSuccessResponse(id as JSONRPCID, result ?? null);
    } catch (error) {
      if (isNotification) {
        this.logger.debug(`notification ${name} failed: ${(error as Error).message}`);
        return null;
      }
      return this.errorResponse(id as JSONRPCID, name, error);
    }
  }

  private errorResponse(id: JSONRPCID, method: string, error: unknown): JSONRPCResponse {
    if (error instanceof RpcError) return createJSONRPCErrorResponse(id, error.code, error.message, error.data);
    this.logger.error(`${method} failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`);
    return createJSONRPCErrorResponse(id, RpcErrorCode.Internal, `internal error while running ${method}`);
  }
}

/** What makes `request` not a JSON-RPC 2.0 request object, or null when it is one. */
function requestProblem(request: unknown): string | null {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return 'a request must be a JSON object';
  const r = request as Record<string, unknown>;
  if (r['jsonrpc'] !== '2.0') return `'jsonrpc' must be "2.0"`;
  if (typeof r['method'] !== 'string' || r['method'] === '') return `'method' must be a non-empty string`;
  if (Object.hasOwn(r, 'id') && !isId(r['id'])) return `'id' must be a string, a number or null`;
  if (r['params'] !== undefined && (typeof r['params'] !== 'object')) return `'params' must be an object or an array`;
  return null;
}
