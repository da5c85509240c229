/**
 * RPC call metrics of one server: a counter and a latency histogram labelled by method. Labels are the registry's
 * canonical method names (aliases count under their method), and calls to unknown names count under `unknown`, so
 * the label set stays bounded whatever clients send. A call costs a plain increment and one histogram observation (its
 * label child cached); the counter reads the increments when Prometheus scrapes.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { MethodRegistry } from '../../host/rpc/registry.js';

/** The `method` label of calls to a name no method has. */
export const UNKNOWN_METHOD = 'unknown';

export function observeRpcCalls(registry: Registry, methods: MethodRegistry): void {
  const calls = new Map<string, { count: number; seconds: Histogram.Internal<string> }>();
  new Counter({
    name: 'umbra_rpc_requests_total',
    help: 'JSON-RPC calls handled, by method (unknown names count as "unknown")',
    labelNames: ['method'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [method, { count }] of calls) this.inc({ method }, count);
    },
  });
  const latency = new Histogram({
    name: 'umbra_rpc_request_seconds',
    help: 'Time a JSON-RPC method took to answer, by method',
    labelNames: ['method'],
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  methods.observeCalls((name, seconds) => {
    const method = name ?? UNKNOWN_METHOD;
    let call = calls.get(method);
    if (!call) {
      call = { count: 0, seconds: latency.labels(method) };
      calls.set(method, call);
    }
    call.count++;
    call.seconds.observe(seconds);
  });
}
