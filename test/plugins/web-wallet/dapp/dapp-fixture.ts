/**
 * What the connection endpoint's tests share: a real `umbra simulator`, a real WalletService of simulator wallet 0
 * with its wallet file (where permissions are kept), an HTTP server of the test's own that hands upgrades on /dapp
 * to the endpoint, a JSON-RPC client over `ws`, and a wait for the next request the user is asked about.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Test } from 'tap';
import { WebSocket } from 'ws';
import type { Core } from '../../../../core-native/ts/core.js';
import { simulatorWalletSecret } from '../../../../cli/simulator-command.js';
import type { DappApprovals, DappRequest } from '../../../../plugins/web-wallet/dapp/approvals.js';
import {
  createDappEndpoint,
  type DappEndpoint,
  type DappEndpointOptions,
} from '../../../../plugins/web-wallet/dapp/dapp-endpoint.js';
import { walletFilePermissions } from '../../../../plugins/web-wallet/dapp/permission-store.js';
import { WalletFile } from '../../../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../../../wallet/wallet-keys.js';
import type { WalletService } from '../../../../wallet/wallet-service.js';
import { testWallet } from '../../../helpers/wallet-app.js';
import type { WalletSimulator } from '../../../helpers/wallet-simulator.js';

/** Cheap key derivation: the tests open the file again, and its strength is not under test. */
const TEST_SCRYPT = { N: 1 << 10, r: 8, p: 1 };

/** Simulator wallet `index` as a WalletService with a new wallet file in the simulator's directory. */
export async function simulatorWallet(
  core: Core,
  simulator: WalletSimulator,
  index: number,
): Promise<{ wallet: WalletService; file: WalletFile }> {
  const secret = simulatorWalletSecret(core, index);
  const path = join(simulator.dir, `dapp-wallet-${index}-${Date.now()}.wallet`);
  const file = await WalletFile.create(path, 'pw', keyContents(walletKeys(core, 'simulator', secret)), TEST_SCRYPT);
  return { wallet: testWallet(core, 'simulator', secret, simulator.daemonUrl, { file }), file };
}

/** The endpoint behind a loopback HTTP server of the test's; its ws:// URL. Both stop when `t` ends. */
export async function serveEndpoint(
  t: Test,
  core: Core,
  wallet: WalletService,
  file: WalletFile,
  options: Partial<DappEndpointOptions> = {},
): Promise<{ endpoint: DappEndpoint; url: string }> {
  const endpoint = createDappEndpoint(wallet, {
    core,
    walletName: 'test wallet',
    permissions: walletFilePermissions(file),
    ...options,
  });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (request.url === '/dapp') endpoint.upgrade(request, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    endpoint.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { endpoint, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/dapp` };
}

export interface RpcAnswer {
  result?: any;
  error?: { code: number; message: string; data?: { wallet_code?: string } };
}

/** A web app's connection: JSON-RPC calls answered by id, other messages (errors without an id) kept in order. */
export class DappClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: RpcAnswer) => void>();
  readonly unrequested: RpcAnswer[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const answer = JSON.parse(String(data)) as RpcAnswer & { id: number | null };
      const resolve = answer.id === null ? undefined : this.waiting.get(answer.id);
      if (resolve) resolve(answer);
      else this.unrequested.push(answer);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  /** Opens a connection; `origin` is the Origin header a browser would send (none: a client without one). */
  static async open(t: Test, url: string, origin?: string): Promise<DappClient> {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    t.teardown(() => socket.terminate());
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new DappClient(socket);
  }

  call(method: string, params?: unknown): Promise<RpcAnswer> {
    const id = this.nextId++;
    return this.sendRaw(
      JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
      id,
    );
  }

  /** Sends `text` as it is; with `id`, resolves with its answer, else with the next answer that has no id. */
  sendRaw(text: string, id?: number): Promise<RpcAnswer> {
    const answered =
      id === undefined ? this.nextUnrequested() : new Promise<RpcAnswer>((resolve) => this.waiting.set(id, resolve));
    this.socket.send(text);
    return answered;
  }

  private async nextUnrequested(): Promise<RpcAnswer> {
    const seen = this.unrequested.length;
    while (this.unrequested.length === seen) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.unrequested[seen]!;
  }
}

/** The next request the user is asked about (one not in `pending` now). */
export function nextRequest(approvals: DappApprovals): Promise<DappRequest> {
  const before = new Set(approvals.pending().map(({ id }) => id));
  return new Promise((resolve) => {
    const check = (): void => {
      const fresh = approvals.pending().find(({ id }) => !before.has(id));
      if (!fresh) return;
      stop();
      resolve(fresh);
    };
    const stop = approvals.onChange(check);
  });
}

/**
 * Sends `method` and waits for the request the user is asked about; fails with the app's answer when the endpoint
 * answers without asking. `answer` is the app's answer once the user has acted.
 */
export async function asking(
  approvals: DappApprovals,
  client: DappClient,
  method: string,
  params?: unknown,
): Promise<{ request: DappRequest; answer: Promise<RpcAnswer> }> {
  const asked = nextRequest(approvals);
  const answer = client.call(method, params);
  const request = await Promise.race([
    asked,
    answer.then((early) => {
      throw new Error(`${method} was answered without asking: ${JSON.stringify(early)}`);
    }),
  ]);
  return { request, answer };
}
