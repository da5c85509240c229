/**
 * The daemon's own RPC methods, called in-process (transport `internal`): the explorer shows what GetInfo, GetBlock,
 * GetTransaction, GetSC, NameToAddress, GetEncryptedBalance and CheckPaymentProof answer, so its figures are the
 * RPC's figures and the views that build them live in one place. A call the method refuses (unknown hash, bad address, name not
 * registered) or a service refuses on purpose (a block or state this node pruned) becomes a not-found ExplorerError
 * carrying the message. Answers are typed as the explorer reads them (daemon-answers.ts).
 */
import { NodeFault, UmbraError } from '../../core-native/ts/errors.js';
import { RpcError } from '../../host/rpc/errors.js';
import type { MethodRegistry } from '../../host/rpc/registry.js';
import type { DaemonAnswers } from './daemon-answers.js';
import { notFound } from './explorer-error.js';

const INTERNAL = { transport: 'internal' } as const;

export type DaemonQuery = <M extends keyof DaemonAnswers>(method: M, params?: unknown) => Promise<DaemonAnswers[M]>;

export function daemonQueries(registry: MethodRegistry): DaemonQuery {
  return async (name, params) => {
    const method = registry.resolve(name);
    if (!method) throw notFound(`this node does not answer ${name} (its plugin is not configured)`);
    try {
      return (await method.handler(method.params(params, 'params'), INTERNAL)) as DaemonAnswers[typeof name];
    } catch (error) {
      // The node's own faults are not the reader's mistake: they stay errors (a 500, logged).
      if (error instanceof RpcError || (error instanceof UmbraError && !(error instanceof NodeFault)))
        throw notFound(error.message);
      throw error;
    }
  };
}
