/**
 * JSON text that keeps integers beyond 2^53 exact, for JSON-RPC, the CLI's --json answers and the wallet file: amounts
 * and `U` arguments are uint64s, which a plain JSON.parse would round to the nearest double. Parsing turns an integer
 * literal that is not a safe integer into a bigint (read from its source text); writing puts a bigint out as a bare
 * JSON number with every digit. Everything else parses and writes exactly as JSON.parse and JSON.stringify do, and
 * costs nothing extra on the hot path.
 */

/** What the JSON built-ins of Node 22+ offer beyond the ES2023 library types. */
interface JsonSourceAccess {
  rawJSON(text: string): unknown;
}
type ReviverContext = { source?: string };

const INTEGER_LITERAL = /^-?[0-9]+$/;
/** 2^53 has 16 digits: a text without such a run of digits holds no integer that needs a bigint. */
const LONG_DIGIT_RUN = /[0-9]{16}/;

function keepBigIntegers(_key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER_LITERAL.test(source) ? BigInt(source) : value;
}

/** JSON.parse, except that integers that are not safe integers come back as exact bigints. */
export function parseExactJson(text: string): unknown {
  return LONG_DIGIT_RUN.test(text) ? JSON.parse(text, keepBigIntegers as never) : JSON.parse(text);
}

const writeBigIntegers = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? (JSON as unknown as JsonSourceAccess).rawJSON(value.toString()) : value;

/** JSON.stringify (indented by `space`, if given), except that bigints are written as JSON numbers with all their digits. */
export function stringifyExactJson(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    // Only a value holding a bigint needs the (slower) replacer; any other failure repeats and propagates.
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, writeBigIntegers, space);
  }
}
