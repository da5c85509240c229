/** Limits and gas prices of the contract VM (docs/contracts.md § Gas and limits). */

/** Lines interpreted per call, over all frames (label-only lines count but are not limited). */
export const MAX_LINES = 2000;
/** Expression nodes evaluated per call, over all frames. */
export const MAX_EVALUATIONS = 11_000;
/** Compute gas per call. */
export const MAX_COMPUTE_GAS = 10_000_000;
/** Storage gas per call is min(fee, this); a fee of 0 (estimates, the runner) has no storage limit. */
export const MAX_STORAGE_GAS = 20_000;
/** Strings are shorter than this many bytes. */
export const MAX_STRING_BYTES = 1_048_576;
/**
 * Nested user-function calls. The reference has no explicit limit (its line limit bounds the depth near 2000);
 * ours is explicit so that the interpreter's own stack can never decide a call's outcome.
 */
export const MAX_CALL_DEPTH = 1000;

/** Compute gas of a non-empty line, charged when it is fetched. */
export const LINE_GAS = 5000;
/** Compute gas of each binary operator. */
export const OPERATOR_GAS = 800;

export const UINT64_MASK = (1n << 64n) - 1n;
