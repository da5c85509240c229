/**
 * A discrete-event model of one message spreading over a gossipsub mesh, for networks larger than this machine can
 * run. Each node keeps `meshDegree` mesh peers (gossipsub's D; the links are symmetric, as gossipsub grafts both
 * ways); each link has a one-way delay drawn from the WAN range. A node that receives a message checks it
 * (`hopMs`, measured by the network bench: it has the message once the check is done) and then sends it to its mesh
 * peers that have not had it yet one after another through its upload (`size / uploadBytesPerMs` each), so a large
 * block leaves the last peer later than the first. Arrivals are
 * events taken in time order (Dijkstra's order: the first copy to reach a node is the one it forwards), which also
 * counts the copies every node sends.
 */
import { seeded } from './wan-network.js';

export interface ModelInputs {
  nodes: number;
  meshDegree: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** Check and handling time at each node before it forwards, ms. */
  hopMs: number;
  /** Bytes of the message on the wire. */
  size: number;
  /** Upload of every node, bytes per ms (12 500 = 100 Mbit/s). */
  uploadBytesPerMs: number;
  seed: number;
}

export interface Spread {
  /** ms from the origin's send until 90 % of the nodes have the message. */
  to90: number;
  /** ms from the origin's send until a node has the message, averaged over the nodes (the origin counts 0). */
  meanArrival: number;
  /** Bytes each node sent, on average (the message times the copies it forwarded). */
  bytesPerNode: number;
}

/** A random mesh: every node grafts peers until it has `degree` of them (a few end with more, as in gossipsub). */
function mesh(nodes: number, degree: number, random: () => number): number[][] {
  const peers: Set<number>[] = Array.from({ length: nodes }, () => new Set<number>());
  for (let node = 0; node < nodes; node++)
    while (peers[node]!.size < Math.min(degree, nodes - 1)) {
      const other = Math.floor(random() * nodes);
      if (other === node) continue;
      peers[node]!.add(other);
      peers[other]!.add(node);
    }
  return peers.map((set) => [...set]);
}

/** A binary heap of [time, node] events, earliest first. */
class Events {
  private readonly heap: [number, number][] = [];
  push(event: [number, number]): void {
    const heap = this.heap;
    heap.push(event);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= heap[i]![0]) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }
  pop(): [number, number] | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && heap[left]![0] < heap[least]![0]) least = left;
        if (right < heap.length && heap[right]![0] < heap[least]![0]) least = right;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top;
  }
}

/** Spreads `trials` messages from random origins over one random mesh; the time to 90 % of each, and the bytes. */
export function spread(inputs: ModelInputs, trials: number): Spread[] {
  const random = seeded(inputs.seed);
  const graph = mesh(inputs.nodes, inputs.meshDegree, random);
  const delay = new Map<number, number>();
  const delayOf = (a: number, b: number): number => {
    const key = Math.min(a, b) * inputs.nodes + Math.max(a, b);
    let ms = delay.get(key);
    if (ms === undefined) {
      ms = inputs.minDelayMs + random() * (inputs.maxDelayMs - inputs.minDelayMs);
      delay.set(key, ms);
    }
    return ms;
  };
  const sendMs = inputs.size / inputs.uploadBytesPerMs;
  const results: Spread[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const origin = Math.floor(random() * inputs.nodes);
    const arrived = new Float64Array(inputs.nodes).fill(Number.POSITIVE_INFINITY);
    const events = new Events();
    events.push([0, origin]);
    let copies = 0;
    const times: number[] = [];
    for (let event = events.pop(); event; event = events.pop()) {
      const [at, node] = event;
      if (arrived[node]! <= at) continue;
      arrived[node] = at;
      times.push(at);
      const targets = graph[node]!.filter((peer) => arrived[peer]! > at);
      targets.forEach((peer, position) => {
        copies++;
        events.push([at + (position + 1) * sendMs + delayOf(node, peer) + inputs.hopMs, peer]);
      });
    }
    results.push({
      to90: times[Math.ceil(0.9 * inputs.nodes) - 1] ?? Number.POSITIVE_INFINITY,
      meanArrival:
        times.length === inputs.nodes
          ? times.reduce((sum, at) => sum + at, 0) / times.length
          : Number.POSITIVE_INFINITY,
      bytesPerNode: (copies * inputs.size) / inputs.nodes,
    });
  }
  return results;
}
