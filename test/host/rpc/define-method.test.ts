/**
 * defineMethod infers a handler's params from its check: a handler that misreads its params does not compile (each
 * `@ts-expect-error` below fails the build if its line ever compiles), and a method answers as its check says.
 */
import t from 'tap';
import { createLogger } from '../../../host/logger.js';
import { JsonRpcDispatcher } from '../../../host/rpc/dispatcher.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, MethodRegistry, type RpcMethod } from '../../../host/rpc/registry.js';

const context = { transport: 'internal' } as const;

const count = defineMethod({
  name: 'Count',
  params: objectParams(p.strictObject({ words: p.array(p.string()), limit: p.optional(p.uint(), undefined) })),
  handler: ({ words, limit }) => words.slice(0, limit ?? words.length).length,
});

// A field the check does not give.
defineMethod({
  name: 'Misnamed',
  params: objectParams(p.object({ word: p.string() })),
  // @ts-expect-error: the check gives `word`, not `words`
  handler: ({ words }) => words,
});

// A params type written by hand that the check does not give.
defineMethod({
  name: 'Mistyped',
  // @ts-expect-error: the check gives `amount` as a bigint, the handler wants a number
  params: objectParams(p.object({ amount: p.uint64() })),
  handler: ({ amount }: { amount: number }) => amount + 1,
});

t.test('a defined method takes what its check gives, in a list of any methods', async (t) => {
  const methods: RpcMethod[] = [count];
  const registry = new MethodRegistry();
  for (const method of methods) registry.add(method);
  const dispatcher = new JsonRpcDispatcher(
    registry,
    createLogger('error', () => {}),
  );
  const call = async (params: unknown): Promise<unknown> =>
    JSON.parse(
      (await dispatcher.handleText(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'Count', params }), context))!,
    );
  t.same(await call({ words: ['a', 'b', 'c'], limit: 2 }), { jsonrpc: '2.0', id: 1, result: 2 });
  t.same(await call({ words: ['a', 'b', 'c'] }), { jsonrpc: '2.0', id: 1, result: 3 });
  t.match(await call({ words: ['a'], limits: 2 }), { error: { code: -32602, message: /unknown field 'limits'/ } });
});
