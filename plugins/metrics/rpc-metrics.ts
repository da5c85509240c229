/**
 * RPC call metrics of one server: a counter and a latency histogram labelled by method. Labels are the registry's
 * canonical method names (aliases count under their method), and calls to unknown names count under `unknown`, so
 * the label set stays bounded whatever clients send. The label children are cached: the hot path is two increments.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { MethodRegistry } from '../../host/rpc/registry.js';

/** The `method` label of calls to a name no method has. */
export const UNKNOWN_METHOD = 'unknown';

export function observeRpcCalls(registry: Registry, methods: MethodRegistry): void {
  const requests = new Counter({
    name: 'umbra_rpc_requests_total',
    help: 'JSON-RPC calls handled, by method (unknown names count as "unknown")',
    labelNames: ['method'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'umbra_rpc_request_seconds',
    help: 'Time a JSON-RPC method took to answer, by method',
    labelNames: ['method'],
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const children = new Map<string, { count: Counter.Internal; seconds: Histogram.Internal<string> }>();
  methods.observeCalls((name, seconds) => {
    const method = name ?? UNKNOWN_METHOD;
    let child = children.get(method);
    if (!child) {
      child = { count: requests.labels(method), seconds: latency.labels(method) };
      children.set(method, child);
    }
    child.count.inc();
    child.seconds.observe(seconds);
  });
}
