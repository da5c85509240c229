/**
 * `Subscribe` and `Unsubscribe` (docs/rpc.md § WebSocket push): a WebSocket client chooses the topics it hears among
 * those its server publishes. Over HTTP there is nothing to push to, so both answer -32098 there.
 */
import type { RpcEndpoint } from '../../host/rpc/endpoint.js';
import { InvalidParamsError, RpcDataCode, RpcError, RpcErrorCode } from '../../host/rpc/errors.js';
import { objectParams, p } from '../../host/rpc/params.js';
import type { PushClient } from '../../host/rpc/push-client.js';
import { defineMethod, type RpcCallContext, type RpcMethod } from '../../host/rpc/registry.js';

function pushClientOf(context: RpcCallContext, method: string): PushClient {
  if (!context.push)
    throw new RpcError(RpcErrorCode.Application, `${method} works on the WebSocket /ws only: HTTP has no push`, {
      code: RpcDataCode.WebSocketOnly,
    });
  return context.push;
}

export function subscriptionMethods(endpoint: RpcEndpoint): RpcMethod[] {
  const checkedTopics = (topics: string[]): string[] => {
    const known = endpoint.topics;
    const unknown = topics.filter((topic) => !known.includes(topic));
    if (unknown.length > 0)
      throw new InvalidParamsError(
        `invalid params: unknown ${unknown.length === 1 ? 'topic' : 'topics'} ${unknown.map((t) => `'${t}'`).join(', ')} (known topics: ${known.join(', ')})`,
      );
    return topics;
  };
  const answer = (client: PushClient) => ({ topics: [...(client.topics ?? [])].sort(), status: 'OK' });
  return [
    defineMethod({
      name: 'Subscribe',
      params: objectParams(p.object({ topics: p.array(p.string()) })),
      handler: ({ topics }, context) => {
        const client = pushClientOf(context, 'Subscribe');
        client.topics = new Set([...(client.topics ?? []), ...checkedTopics(topics)]);
        return answer(client);
      },
    }),
    defineMethod({
      name: 'Unsubscribe',
      params: objectParams(p.object({ topics: p.optional(p.array(p.string()), undefined) })),
      handler: ({ topics }, context) => {
        const client = pushClientOf(context, 'Unsubscribe');
        const leaving = new Set(topics === undefined ? endpoint.topics : checkedTopics(topics));
        client.topics = new Set([...(client.topics ?? [])].filter((topic) => !leaving.has(topic)));
        return answer(client);
      },
    }),
  ];
}
