/**
 * The push from the wallet process to its open pages (Server-Sent Events on `/api/events`): each event names what
 * changed (PushTopic) and the page reads that part again, so a new transfer shows without a reload.
 */
import type { ServerResponse } from 'node:http';
import type { PushTopic } from './api-types.js';

/** How often an idle stream carries a comment, so that proxies and browsers keep it open. */
const KEEPALIVE_MS = 15_000;

export class PushStream {
  private readonly clients = new Set<ServerResponse>();
  private keepalive?: NodeJS.Timeout;

  /** Holds `response` open as an event stream until the page goes. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(': open\n\n');
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
    if (!this.keepalive) {
      this.keepalive = setInterval(() => this.write(': keepalive\n\n'), KEEPALIVE_MS);
      this.keepalive.unref();
    }
  }

  publish(topic: PushTopic): void {
    this.write(`data: ${topic}\n\n`);
  }

  close(): void {
    clearInterval(this.keepalive);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private write(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}
