/** Runs small contracts in tests: a body of numbered lines wrapped in one function, or a whole source. */
import type { RunResponse } from '../../cli/contract-runner.js';
import { dvm } from './dvm.js';

export interface SnippetOptions {
  returns?: 'Uint64' | 'String' | '';
  params?: string;
  args?: { name: string; datatype: 'S' | 'U' | 'H'; value: string | number }[];
  env?: Record<string, unknown>;
  store?: Record<string, unknown>[];
}

/** Runs `Function F(params) returns` + lines + `End Function`. */
export async function snippet(lines: string, options: SnippetOptions = {}): Promise<RunResponse> {
  const returns = options.returns ?? 'Uint64';
  const code = `Function F(${options.params ?? ''}) ${returns}\n${lines}\nEnd Function\n`;
  return source(code, 'F', options);
}

export async function source(code: string, entrypoint: string, options: SnippetOptions = {}): Promise<RunResponse> {
  return (await dvm()).run({ code, entrypoint, args: options.args ?? [], env: options.env, store: options.store });
}

/** The value of a one-line RETURN expression. */
export async function evaluate(
  expr: string,
  returns: 'Uint64' | 'String' = 'Uint64',
  options: SnippetOptions = {},
): Promise<RunResponse> {
  return snippet(`10 RETURN ${expr}`, { ...options, returns });
}
