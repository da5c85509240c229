/** `Echo` as both servers answer it: a label, a space, then the params (an array of strings) joined by spaces. */
import { InvalidParamsError } from './errors.js';
import type { ParamCheck } from './params.js';
import { defineMethod, type RpcMethod } from './registry.js';

const echoWords: ParamCheck<string[]> = (value) => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InvalidParamsError('invalid params: Echo takes an array of strings');
  return value.map((word, i) => {
    if (typeof word !== 'string') throw new InvalidParamsError(`invalid params: 'params[${i}]' must be a string`);
    return word;
  });
};

export const echoMethod = (label: string, name: string, aliases: string[] = []): RpcMethod<string[], string> =>
  defineMethod({ name, aliases, params: echoWords, handler: (words) => [label, ...words].join(' ') });
