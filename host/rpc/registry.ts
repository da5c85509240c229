/**
 * A method registry for one RPC server (the daemon's or the wallet's). Plugins add methods; transports only ask
 * the registry to resolve a name. Names match case-insensitively, by canonical name or alias, and a server may
 * declare a prefix that callers can put in front of any name (the wallet accepts `WALLET.GetAddress`).
 */
import type { PushClient } from './push-client.js';
import type { ParamCheck } from './params.js';

export interface RpcCallContext {
  /** The transport the call came through. */
  readonly transport: 'http' | 'ws' | 'internal';
  /** The push client making the call, on a transport with push (WebSocket). */
  readonly push?: PushClient;
}

/**
 * A method: its params check and the handler that takes what the check returns. `RpcMethod` without type arguments
 * stands for any method (what lists and the registry hold): `handler` is declared as a method, so a method whose check
 * gives P fits there, which is sound because the dispatcher passes a handler only its own check's result.
 */
export interface RpcMethod<P = unknown, R = unknown> {
  /** Canonical name, e.g. `NODE.GetInfo` or `GetAddress`. */
  readonly name: string;
  /** Other names that reach the same method, e.g. `getinfo`, `get_info`. */
  readonly aliases?: readonly string[];
  readonly params: ParamCheck<P>;
  handler(params: P, context: RpcCallContext): R | Promise<R>;
}

/**
 * Defines a method from its params check: the handler's params type is inferred from the check, so a handler that
 * reads a field the check does not give, or reads it as another type, does not compile.
 */
export function defineMethod<P, R>(method: RpcMethod<P, R>): RpcMethod<P, R> {
  return method;
}

/** How a call failed, as its answer says. */
export interface RpcCallFailure {
  /** The JSON-RPC error code of the answer. */
  readonly code: number;
}

/**
 * Told of each call a dispatcher runs: the method's canonical name (undefined when no method has the name asked for),
 * the seconds its handler took, a failure included, and for a failed call how it failed.
 */
export type RpcCallObserver = (method: string | undefined, seconds: number, failure?: RpcCallFailure) => void;

export class MethodRegistry {
  private readonly byName = new Map<string, RpcMethod>();
  private observer: RpcCallObserver | undefined;

  /** @param optionalPrefix a prefix (e.g. `WALLET.`) that may stand before any method name. */
  constructor(private readonly optionalPrefix = '') {}

  /** Adds a method; a literal given here has its handler's params inferred from its check, as defineMethod does. */
  add<P, R>(method: RpcMethod<P, R>): void {
    for (const name of [method.name, ...(method.aliases ?? [])]) {
      const key = name.toLowerCase();
      const existing = this.byName.get(key);
      if (existing) throw new Error(`RPC method name '${name}' is already registered (by ${existing.name})`);
      this.byName.set(key, method);
    }
  }

  resolve(name: string): RpcMethod | undefined {
    const key = name.toLowerCase();
    const direct = this.byName.get(key);
    if (direct || !this.optionalPrefix) return direct;
    const prefix = this.optionalPrefix.toLowerCase();
    return key.startsWith(prefix) ? this.byName.get(key.slice(prefix.length)) : undefined;
  }

  /** The observer of calls (metrics), if one is set. */
  get callObserver(): RpcCallObserver | undefined {
    return this.observer;
  }

  /** Sets the observer of this registry's calls; a registry has at most one. */
  observeCalls(observer: RpcCallObserver): void {
    if (this.observer) throw new Error('the calls of this RPC server are already observed');
    this.observer = observer;
  }

  /** Canonical names of every registered method, sorted. */
  names(): string[] {
    return [...new Set([...this.byName.values()].map((m) => m.name))].sort();
  }
}
