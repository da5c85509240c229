/** `NODE.Echo` and `NODE.Ping`: the daemon's liveness methods. */
import { noParams, type ParamCheck } from '../../../host/rpc/params.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import type { RpcMethod } from '../../../host/rpc/registry.js';

/** The fixed label `NODE.Echo` answers with before the echoed words. */
export const DAEMON_ECHO_LABEL = 'UMBRA';

const echoWords: ParamCheck<string[]> = (value) => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InvalidParamsError('invalid params: Echo takes an array of strings');
  return value.map((word, i) => {
    if (typeof word !== 'string') throw new InvalidParamsError(`invalid params: 'params[${i}]' must be a string`);
    return word;
  });
};

export const echoMethod = (label: string, name: string, aliases: string[] = []): RpcMethod<string[], string> => ({
  name,
  aliases,
  params: echoWords,
  handler: (words) => [label, ...words].join(' '),
});

export const daemonEchoMethods: RpcMethod<any, string>[] = [
  echoMethod(DAEMON_ECHO_LABEL, 'NODE.Echo'),
  echoMethod('DAEMON', 'DAEMON.Echo'),
  { name: 'NODE.Ping', params: noParams, handler: () => 'Pong ' },
];
