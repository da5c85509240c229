/** `NODE.Echo` and `NODE.Ping`: the daemon's liveness methods. */
import { echoMethod } from '../../../host/rpc/echo.js';
import { noParams } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';

/** The fixed label `NODE.Echo` answers with before the echoed words. */
export const DAEMON_ECHO_LABEL = 'UMBRA';

export const daemonEchoMethods: RpcMethod[] = [
  echoMethod(DAEMON_ECHO_LABEL, 'NODE.Echo'),
  echoMethod('DAEMON', 'DAEMON.Echo'),
  defineMethod({ name: 'NODE.Ping', params: noParams, handler: () => 'Pong ' }),
];
