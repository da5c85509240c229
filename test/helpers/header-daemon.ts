/**
 * A stand-in daemon on a loopback port that answers NODE.GetHeaders (docs/rpc.md § NODE.GetHeaders) from whatever
 * chain it is handed — an honest chain's blocks, or blocks a test forged — so light-client tests can make a daemon
 * lie. Its chain can be swapped between calls, as a real daemon's moves.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toHex } from '../../protocol/bytes.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import type { TestChain } from './chain.js';

/** A block as the stand-in serves it: its bytes and what it says of its difficulty and work. */
export interface ServedBlock {
  bytes: Uint8Array;
  difficulty: bigint;
  cumulativeWork: bigint;
  /** The id it is served with (default: its own, SHA3-256 of the bytes). */
  id?: Uint8Array;
}

export interface HeaderDaemon {
  client: DaemonClient;
  /** The chain served from now on: index = topoheight. */
  serve(blocks: readonly ServedBlock[]): void;
  /** NODE.GetHeaders calls answered so far, with their params. */
  readonly calls: { topoheight: number; count: number }[];
  close(): Promise<void>;
}

/** The main chain of a test chain, genesis first, as served blocks. */
export function servedChain(test: TestChain): ServedBlock[] {
  const blocks: ServedBlock[] = [];
  for (let topoheight = 0n; topoheight <= test.chain.top.height; topoheight++) {
    const meta = test.chain.metaAtTopo(topoheight)!;
    blocks.push({
      bytes: test.chain.blockBytes(meta.id)!,
      difficulty: meta.difficulty,
      cumulativeWork: meta.cumulativeWork,
    });
  }
  return blocks;
}

export async function headerDaemon(hash: (bytes: Uint8Array) => Uint8Array): Promise<HeaderDaemon> {
  let chain: readonly ServedBlock[] = [];
  const calls: { topoheight: number; count: number }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body);
      if (method !== 'NODE.GetHeaders') {
        response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }));
        return;
      }
      calls.push(params);
      const headers = chain.slice(params.topoheight, params.topoheight + params.count).map((block) => ({
        hash: toHex(block.id ?? hash(block.bytes)),
        blob: toHex(block.bytes),
        difficulty: block.difficulty.toString(),
        cumulative_difficulty: block.cumulativeWork.toString(),
      }));
      const result = { headers, top_topoheight: chain.length - 1, status: 'OK' };
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    client: new DaemonClient(`127.0.0.1:${(server.address() as AddressInfo).port}`),
    serve: (blocks) => (chain = blocks),
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
