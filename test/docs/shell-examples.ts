/**
 * Reads the shell examples of a Markdown page as a reader sees them: each command of a ```sh block (continuation
 * lines joined) with the answer printed under it as a `# …` comment, and compares real answers with the documented
 * ones. In a documented answer `…` inside a string stands for any text, a number stands for any number (heights and
 * balances move), `[]` for any array, and an object lists the keys that must be there (more may be).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';

export interface ShellExample {
  /** The command on one line. */
  command: string;
  /** The documented answer: the `# …` line right under the command, when there is one. */
  answer?: string;
}

/** Every command of the page's ```sh blocks, in page order. */
export function shellExamples(page: string): ShellExample[] {
  const text = readFileSync(join(REPO_ROOT, page), 'utf8');
  const examples: ShellExample[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let last: ShellExample | undefined;
    for (const line of block[1]!.replace(/\\\n\s*/g, ' ').split('\n')) {
      if (line.startsWith('# ')) {
        if (last && last.answer === undefined) last.answer = line.slice(2);
      } else if (line.trim() !== '') {
        last = { command: line.trim() };
        examples.push(last);
      } else {
        last = undefined;
      }
    }
  }
  return examples;
}

/** Where `actual` departs from the documented `expected` (see the file comment), or undefined when it matches. */
export function shapeMismatch(actual: unknown, expected: unknown, path = 'answer'): string | undefined {
  if (typeof expected === 'string' && expected.includes('…')) {
    const parts = expected.split('…');
    if (typeof actual !== 'string')
      return `${path}: expected a string like ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    let at = 0;
    for (const [i, part] of parts.entries()) {
      const found = i === 0 ? (actual.startsWith(part) ? 0 : -1) : actual.indexOf(part, at);
      if (found < 0 || (i === parts.length - 1 && !actual.endsWith(part)))
        return `${path}: ${JSON.stringify(actual)} is not like ${JSON.stringify(expected)}`;
      at = found + part.length;
    }
    return undefined;
  }
  if (typeof expected === 'number')
    return typeof actual === 'number' ? undefined : `${path}: expected a number, got ${JSON.stringify(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length < expected.length)
      return `${path}: expected at least ${expected.length} elements, got ${actual.length}`;
    for (const [i, element] of expected.entries()) {
      const mismatch = shapeMismatch(actual[i], element, `${path}[${i}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${path}.${key} is missing`;
      const mismatch = shapeMismatch((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return actual === expected
    ? undefined
    : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** The key an answer is kept under: the method name in lower case, without a `NODE.` prefix (as placeholders say it). */
export function answerKey(method: string): string {
  return method.replace(/^node\./i, '').toLowerCase();
}

/**
 * Fills `<field from method>` placeholders from earlier answers (kept under `answerKey(method)`); a dotted field
 * (`entry.proof`) reads inside the answer.
 */
export function fillPlaceholders(command: string, answers: ReadonlyMap<string, Record<string, unknown>>): string {
  return command.replace(/<([\w.]+) from ([\w.]+)>/g, (placeholder, field: string, method: string) => {
    const value = field
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], answers.get(answerKey(method)));
    if (typeof value !== 'string') throw new Error(`${placeholder}: no earlier ${method} answer with a ${field}`);
    return value;
  });
}
