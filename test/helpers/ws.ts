/** A WebSocket client of an RPC server's /ws for tests: requests, and the pushed notifications waited for by predicate. */
import WebSocket from 'ws';
import { parseExactJson } from '../../protocol/exact-json.js';
import { Inbox } from './inbox.js';

export class WsClient {
  private readonly answers = new Map<number, (answer: any) => void>();
  private readonly inbox = new Inbox<any>();
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = parseExactJson(data.toString()) as any;
      if (message.id !== undefined && this.answers.has(message.id)) {
        this.answers.get(message.id)!(message);
        this.answers.delete(message.id);
        return;
      }
      this.inbox.push(message);
    });
  }

  /** Every notification (message without `id`) received so far, in order. */
  get pushed(): any[] {
    return this.inbox.items;
  }

  /** Connects to `baseUrl`'s /ws (e.g. http://127.0.0.1:43121); rejects with the HTTP status when refused. */
  static connect(baseUrl: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/ws', { headers });
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  /** Sends a request and resolves with the whole answer (`result` or `error`). */
  request(method: string, params?: unknown): Promise<any> {
    const id = this.nextId++;
    const answer = new Promise<any>((resolve) => this.answers.set(id, resolve));
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return answer;
  }

  /** The first pushed notification (received or to come) that `matches`, within `timeoutMs`. */
  waitFor(matches: (message: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> {
    return this.inbox.next(matches, `${what} pushed`, timeoutMs);
  }

  /** The notifications of one method (topic) received so far. */
  of(method: string): any[] {
    return this.pushed.filter((message) => message.method === method);
  }

  close(): void {
    this.ws.close();
  }
}
