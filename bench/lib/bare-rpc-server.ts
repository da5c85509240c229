/**
 * The floor for RPC throughput: a bare node:http server that reads the body, parses the JSON-RPC request and answers
 * `Pong `, with nothing else. Prints its port on stdout once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown };
    const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: 'Pong ' });
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
