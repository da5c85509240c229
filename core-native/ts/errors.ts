/**
 * The one error model. Every failure a service reports on purpose is an `UmbraError`: a message for people and a
 * `code` for programs, from an enum of its area (block, transaction, miniblock, wallet, daemon client, …). Callers
 * recognise a failure by `instanceof` and `code`, never by comparing message text. Services throw domain errors
 * only; the RPC layer (host/rpc) is the one place that maps them to JSON-RPC errors, the code in the answer's `data`.
 * The base lives in the lowest layer so that the proof system's refusals are in the model too (docs/architecture.md
 * § Errors); it knows nothing of the node.
 */

/** Facts a program may need beside the code (e.g. a contract's own error), answered next to it over JSON-RPC. */
export type ErrorDetails = Readonly<Record<string, string | number>>;

export interface UmbraErrorOptions extends ErrorOptions {
  details?: ErrorDetails;
}

export class UmbraError<Code extends string = string> extends Error {
  override readonly name: string = 'UmbraError';
  readonly details?: ErrorDetails;

  constructor(
    /** What went wrong, as a stable identifier (one of the area's enum values). */
    readonly code: Code,
    message: string,
    options?: UmbraErrorOptions,
  ) {
    super(message, options);
    if (options?.details) this.details = options.details;
  }

  /** Whether `error` is an UmbraError with this code (any area). */
  static is<C extends string>(error: unknown, code: C): error is UmbraError<C> {
    return error instanceof UmbraError && error.code === code;
  }
}

/**
 * A failure that is the node's own, not the caller's: a damaged or closed store, a state read under the pruner, a
 * guard against a bug. It keeps its code, but the RPC layer answers it as an internal error (-32603) and logs it with
 * its stack, as it does any unexpected error, instead of presenting it as the caller's mistake.
 */
export class NodeFault<Code extends string = string> extends UmbraError<Code> {
  override readonly name: string = 'NodeFault';
}
