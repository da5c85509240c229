/**
 * The structure pass (docs/contracts.md § Source text, § Functions and entry points): tokens grouped into lines by the source line they start on, lines
 * grouped into `Function name(params) [type]` … `End Function` blocks, each body line carrying a decimal label that
 * is strictly ascending within its function, not 0 and not 2^64−1. Where the reference silently accepts mistakes
 * we reject them with a clear error: a function defined twice, a parameter named twice, text after the return type.
 */
import { ContractCompileError } from '../../host/services/contract-vm.js';
import type { Token } from './lexer.js';

export type DvmType = 'Uint64' | 'String';

export interface SourceLine {
  readonly label: bigint;
  /** The statement's tokens (after the label); empty for a label-only line. */
  readonly tokens: readonly Token[];
  readonly sourceLine: number;
}

export interface FunctionSource {
  readonly name: string;
  readonly params: readonly { name: string; type: DvmType }[];
  readonly returns: DvmType | undefined;
  readonly lines: readonly SourceLine[];
  readonly sourceLine: number;
}

const MAX_LABEL = (1n << 64n) - 1n;
const LETTER = /^\p{L}/u;

export function parseType(token: Token | undefined): DvmType | undefined {
  const text = token?.text.toLowerCase();
  return text === 'uint64' ? 'Uint64' : text === 'string' ? 'String' : undefined;
}

const isWord = (token: Token | undefined, word: string): boolean =>
  token?.kind === 'ident' && token.text.toLowerCase() === word;

/** Consecutive tokens that start on the same source line. */
function logicalLines(tokens: readonly Token[]): Token[][] {
  const lines: Token[][] = [];
  for (const token of tokens) {
    const last = lines[lines.length - 1];
    if (last && last[0]!.line === token.line) last.push(token);
    else lines.push([token]);
  }
  return lines;
}

function parseHeader(line: Token[]): Omit<FunctionSource, 'lines'> {
  const at = line[0]!.line;
  // Typed where declared, so that tsc narrows past a call to it (as after a throw).
  const fail: (message: string, fn?: string) => never = (message, fn) => {
    throw new ContractCompileError(message, fn, undefined, at);
  };
  const nameToken = line[1];
  if (!nameToken) fail('a function needs a name: Function Name(parameters) [Uint64|String]');
  const name = nameToken.text;
  if (nameToken.kind !== 'ident' || !LETTER.test(name))
    fail(`function name ${JSON.stringify(name)} must start with a letter`);
  if (line[2]?.text !== '(') fail(`expected ( after the function name ${name}`, name);
  const params: { name: string; type: DvmType }[] = [];
  let i = 3;
  for (;;) {
    const token = line[i];
    if (!token) fail(`the parameter list of ${name} is not closed with ) on its line`, name);
    if (token.text === ')') break;
    if (token.text === ',') {
      i++;
      continue;
    }
    if (token.kind !== 'ident' || !LETTER.test(token.text))
      fail(`parameter name ${JSON.stringify(token.text)} of ${name} must start with a letter`, name);
    const type = parseType(line[i + 1]);
    if (!type) fail(`parameter ${token.text} of ${name} needs a type, Uint64 or String`, name);
    if (params.some((p) => p.name === token.text)) fail(`parameter ${token.text} of ${name} is declared twice`, name);
    params.push({ name: token.text, type: type! });
    i += 2;
  }
  const rest = line.slice(i + 1);
  if (rest.length > 1) fail(`unexpected ${JSON.stringify(rest[1]!.text)} after the return type of ${name}`, name);
  const returns = rest.length ? parseType(rest[0]) : undefined;
  if (rest.length && !returns)
    fail(`return type of ${name} must be Uint64 or String, not ${JSON.stringify(rest[0]!.text)}`, name);
  return { name, params, returns, sourceLine: at };
}

function parseLabel(token: Token, fn: string): bigint {
  const fail = (message: string): never => {
    throw new ContractCompileError(message, fn, undefined, token.line);
  };
  if (token.kind !== 'int' || !/^[0-9]+$/.test(token.text))
    fail(`a line must start with a decimal line number, found ${JSON.stringify(token.text)}`);
  const label = token.value as bigint;
  if (label === 0n || label === MAX_LABEL)
    fail(`line number ${token.text} is reserved (use 1 to 18446744073709551614)`);
  return label;
}

export function parseStructure(tokens: readonly Token[]): Map<string, FunctionSource> {
  const functions = new Map<string, FunctionSource>();
  let current: (Omit<FunctionSource, 'lines'> & { lines: SourceLine[] }) | undefined;
  for (const line of logicalLines(tokens)) {
    const bad = line.find((t) => t.kind === 'bad');
    if (bad) {
      const label = current && line[0]!.kind === 'int' ? (line[0]!.value as bigint) : undefined;
      throw new ContractCompileError(String(bad.value), current?.name, label, bad.line);
    }
    const first = line[0]!; // a logical line has at least one token
    if (!current) {
      if (!isWord(first, 'function'))
        throw new ContractCompileError(
          `expected a function declaration (Function Name(...)), found ${JSON.stringify(first.text)}`,
          undefined,
          undefined,
          first.line,
        );
      current = { ...parseHeader(line), lines: [] };
      if (functions.has(current.name))
        throw new ContractCompileError(
          `function ${current.name} is defined twice`,
          current.name,
          undefined,
          first.line,
        );
      continue;
    }
    if (isWord(first, 'end')) {
      if (!isWord(line[1], 'function') || line.length > 2)
        throw new ContractCompileError('expected End Function', current.name, undefined, first.line);
      functions.set(current.name, current);
      current = undefined;
      continue;
    }
    if (isWord(first, 'function'))
      throw new ContractCompileError(
        `function ${current.name} is not closed with End Function before the next function`,
        current.name,
        undefined,
        first.line,
      );
    const label = parseLabel(first, current.name);
    const previous = current.lines[current.lines.length - 1];
    if (previous && label <= previous.label) {
      const why =
        label === previous.label ? 'appears twice' : `must be greater than the previous line ${previous.label}`;
      throw new ContractCompileError(`line number ${label} ${why}`, current.name, label, first.line);
    }
    current.lines.push({ label, tokens: line.slice(1), sourceLine: first.line });
  }
  if (current)
    throw new ContractCompileError(
      `function ${current.name} has no End Function`,
      current.name,
      undefined,
      current.sourceLine,
    );
  return functions;
}
