/** How the dispatcher answers a method's failure: the one mapping of errors to JSON-RPC errors, codes in `data`. */
import t from 'tap';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { createLogger } from '../../../host/logger.js';
import { JsonRpcDispatcher } from '../../../host/rpc/dispatcher.js';
import { InvalidParamsError, RpcError } from '../../../host/rpc/errors.js';
import { noParams, p } from '../../../host/rpc/params.js';
import { MethodRegistry } from '../../../host/rpc/registry.js';

const context = { transport: 'internal' } as const;

function dispatcher(failures: Record<string, () => unknown>): { dispatcher: JsonRpcDispatcher; logged: string[] } {
  const registry = new MethodRegistry();
  for (const [name, handler] of Object.entries(failures)) registry.add({ name, params: noParams, handler });
  const logged: string[] = [];
  return {
    dispatcher: new JsonRpcDispatcher(
      registry,
      createLogger('debug', (line) => logged.push(line)),
    ),
    logged,
  };
}

const call = async (d: JsonRpcDispatcher, method: string, id = 1): Promise<string | null> =>
  d.handleText(JSON.stringify({ jsonrpc: '2.0', id, method }), context);
const notify = async (d: JsonRpcDispatcher, method: string): Promise<string | null> =>
  d.handleText(JSON.stringify({ jsonrpc: '2.0', method }), context);

t.test('an UmbraError is answered with -32098, its message and its code in data, sync or async', async (t) => {
  const { dispatcher: d } = dispatcher({
    Sync: () => {
      throw new UmbraError('test.refused', 'the thing is refused');
    },
    Async: async () => {
      throw new UmbraError('test.refused', 'refused later');
    },
  });
  t.same(JSON.parse((await call(d, 'Sync'))!), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32098, message: 'the thing is refused', data: { code: 'test.refused' } },
  });
  t.same(JSON.parse((await call(d, 'Async', 2))!), {
    jsonrpc: '2.0',
    id: 2,
    error: { code: -32098, message: 'refused later', data: { code: 'test.refused' } },
  });
  t.equal(await notify(d, 'Sync'), null, 'a notification gets no answer');
});

t.test("an UmbraError's details are answered beside its code, which they cannot replace", async (t) => {
  const { dispatcher: d } = dispatcher({
    Detailed: () => {
      throw new UmbraError('test.would-fail', 'the call would fail: 1', { details: { failure: '1', code: 'x' } });
    },
  });
  t.same(JSON.parse((await call(d, 'Detailed'))!).error, {
    code: -32098,
    message: 'the call would fail: 1',
    data: { failure: '1', code: 'test.would-fail' },
  });
});

t.test('an RpcError keeps its own code and data; invalid params carry rpc.invalid-params', async (t) => {
  const { dispatcher: d } = dispatcher({
    Refuse: () => {
      throw new RpcError(-32098, 'over HTTP', { code: 'rpc.websocket-only' });
    },
    Invalid: () => {
      throw new InvalidParamsError("invalid params: 'x' must be a string");
    },
  });
  t.same(JSON.parse((await call(d, 'Refuse'))!).error, {
    code: -32098,
    message: 'over HTTP',
    data: { code: 'rpc.websocket-only' },
  });
  t.same(JSON.parse((await call(d, 'Invalid'))!).error, {
    code: -32602,
    message: "invalid params: 'x' must be a string",
    data: { code: 'rpc.invalid-params' },
  });
});

t.test('an unexpected error is logged and answered as an internal error without its stack', async (t) => {
  const { dispatcher: d, logged } = dispatcher({
    Broken: () => {
      throw new TypeError('secret detail');
    },
  });
  const text = (await call(d, 'Broken'))!;
  t.same(JSON.parse(text).error, { code: -32603, message: 'internal error while running Broken' });
  t.notMatch(text, /secret detail|\bat .*\.js:\d+/, 'neither the message nor a stack trace reaches the caller');
  t.match(
    logged.join('\n'),
    /ERROR .*Broken failed unexpectedly: TypeError: secret detail\n\s+at /,
    'the stack is logged',
  );
});

t.test('integers beyond 2^53 reach the method and come back exactly', async (t) => {
  const registry = new MethodRegistry();
  registry.add({ name: 'Double', params: p.object({ value: p.uint64() }), handler: ({ value }) => value * 2n });
  const d = new JsonRpcDispatcher(
    registry,
    createLogger('error', () => {}),
  );
  t.equal(
    await d.handleText(
      '{"jsonrpc":"2.0","id":18446744073709551615,"method":"Double","params":{"value":9007199254740993}}',
      context,
    ),
    '{"jsonrpc":"2.0","id":18446744073709551615,"result":18014398509481986}',
    'the params, the result and the id keep every digit',
  );
});

t.test("a registry's call observer hears of every call by canonical name, failed and async ones too", async (t) => {
  const registry = new MethodRegistry();
  const add = (name: string, handler: () => unknown, aliases?: string[]) =>
    registry.add({ name, params: noParams, handler, ...(aliases ? { aliases } : {}) });
  add('Sync', () => 1, ['sync_alias']);
  add('Slow', () => new Promise((resolve) => setTimeout(() => resolve(2), 20)));
  add('Fails', () => {
    throw new UmbraError('test.refused', 'no');
  });
  add('FailsLater', async () => {
    throw new UmbraError('test.refused', 'no');
  });
  add('Crashes', () => {
    throw new TypeError('a bug');
  });
  const d = new JsonRpcDispatcher(
    registry,
    createLogger('error', () => {}),
  );
  const seen: [string | undefined, number, number | undefined][] = [];
  registry.observeCalls((method, seconds, failure) => seen.push([method, seconds, failure?.code]));
  t.throws(() => registry.observeCalls(() => {}), /already observed/, 'one observer per registry');

  for (const method of ['sync_alias', 'Slow', 'Fails', 'FailsLater', 'Nope', 'Crashes']) await call(d, method);
  await notify(d, 'Sync');
  await notify(d, 'Fails');
  t.same(
    seen.map(([method]) => method),
    ['Sync', 'Slow', 'Fails', 'FailsLater', undefined, 'Crashes', 'Sync', 'Fails'],
  );
  t.same(
    seen.map(([, , code]) => code),
    [undefined, undefined, -32098, -32098, -32601, -32603, undefined, -32098],
    'a failure is told with the code its answer has (a notification has none, but failed the same)',
  );
  t.ok(seen[1]![1] >= 0.015, `a slow call is timed until it settles (${seen[1]![1]} s)`);
  t.ok(
    seen.every(([, seconds]) => seconds >= 0 && seconds < 1),
    'times are in seconds',
  );
  t.equal(seen[4]![1], 0, 'an unknown name takes no time');
});

t.test('params nested 5000 levels deep are -32602, quietly; 64 levels still reach the method', async (t) => {
  const registry = new MethodRegistry();
  registry.add({ name: 'Take', params: (value: unknown) => value, handler: () => 'taken' });
  const logged: string[] = [];
  const d = new JsonRpcDispatcher(
    registry,
    createLogger('debug', (line) => logged.push(line)),
  );
  const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const deep = await d.handleText(`{"jsonrpc":"2.0","id":1,"method":"Take","params":${nested(5000)}}`, context);
  t.same(JSON.parse(deep!), {
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32602,
      message: 'invalid params: nested more than 64 levels deep',
      data: { code: 'rpc.invalid-params' },
    },
  });
  t.same(logged, [], 'nothing logged, no stack');
  const allowed = await d.handleText(`{"jsonrpc":"2.0","id":2,"method":"Take","params":${nested(64)}}`, context);
  t.same(JSON.parse(allowed!), { jsonrpc: '2.0', id: 2, result: 'taken' });
  // 16 digits in a row (a hash, an amount) make the parser keep big integers exact, which walks the value recursively.
  const withDigits = `{"jsonrpc":"2.0","id":3,"method":"Take","params":[${nested(5000)},"1234567890123456"]}`;
  t.same(JSON.parse((await d.handleText(withDigits, context))!), {
    jsonrpc: '2.0',
    id: 3,
    error: {
      code: -32602,
      message: 'invalid params: nested more than 64 levels deep',
      data: { code: 'rpc.invalid-params' },
    },
  });
  const deepBatch = `[{"jsonrpc":"2.0","id":4,"method":"Take","params":[${nested(100_000)},12345678901234567890]}]`;
  t.same(JSON.parse((await d.handleText(deepBatch, context))!).error.code, -32602, 'in a batch too');
  t.same(logged, [], 'still nothing logged');
});

t.test('batches: at most 1000 calls, an answer of at most 25 MB, other clients served in between', async (t) => {
  const registry = new MethodRegistry();
  const big = 'x'.repeat(30_000);
  let ran = 0;
  registry.add({ name: 'Ping', params: noParams, handler: () => 'pong' });
  registry.add({
    name: 'Big',
    params: noParams,
    handler: () => {
      ran++;
      return big;
    },
  });
  registry.add({
    name: 'Slow',
    params: noParams,
    handler: () => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      return 'done';
    },
  });
  const d = new JsonRpcDispatcher(
    registry,
    createLogger('debug', () => undefined),
  );
  const batchOf = (method: string, count: number): string =>
    JSON.stringify(Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method })));

  const started = performance.now();
  const tooLong = JSON.parse((await d.handleText(batchOf('Ping', 40_000), context))!);
  t.same(tooLong, {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'invalid request: a batch holds at most 1000 calls, this one has 40000; split it' },
  });
  t.ok(performance.now() - started < 2000, 'refused without running its calls');

  const tooBig = JSON.parse((await d.handleText(batchOf('Big', 1000), context))!);
  t.match(tooBig.error, {
    code: -32600,
    message: /^invalid request: the batch's answer would exceed 25 MB \(after \d+ of its 1000 calls\); ask for less/,
  });
  t.ok(ran < 1000, `the work stopped at the cap (${ran} of 1000 calls ran)`);

  const answers = JSON.parse((await d.handleText(batchOf('Ping', 1000), context))!);
  t.equal(answers.length, 1000, 'a full batch within the caps is answered');

  const order: string[] = [];
  const slowBatch = Promise.resolve(d.handleText(batchOf('Slow', 200), context)).then(() => order.push('batch'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.resolve(d.handleText(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'Ping' }), context));
  order.push('ping');
  await slowBatch;
  t.same(order, ['ping', 'batch'], 'a call from another client is answered while a long batch runs');
});

t.test("a batch's answer is capped in bytes of UTF-8, not in characters", async (t) => {
  const registry = new MethodRegistry();
  // 10 000 characters of three bytes each: 30 kB an answer, so the 833rd passes 25 MB at only 8.3 M characters.
  registry.add({ name: 'Wide', params: noParams, handler: () => '€'.repeat(10_000) });
  const d = new JsonRpcDispatcher(
    registry,
    createLogger('debug', () => undefined),
  );
  const batch = JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'Wide' })));
  const answer = JSON.parse((await d.handleText(batch, context))!);
  t.match(answer.error, {
    code: -32600,
    message: /^invalid request: the batch's answer would exceed 25 MB \(after 83\d of/,
  });
});
