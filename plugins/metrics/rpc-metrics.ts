/**
 * RPC call metrics of one server: a counter and a latency histogram labelled by method, and a counter of failed calls
 * by method and error code. Labels are the registry's canonical method names (aliases count under their method), and
 * calls to unknown names count under `unknown`, so the label set stays bounded whatever clients send. A call costs a
 * plain increment and one histogram observation (its label child cached); the counters read the increments when
 * Prometheus scrapes.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { MethodRegistry, RpcCallFailure } from '../../host/rpc/registry.js';

/** The `method` label of calls to a name no method has. */
export const UNKNOWN_METHOD = 'unknown';

/** The labels that tell failures apart, beside the method: the JSON-RPC error code. */
const failureLabels = (failure: RpcCallFailure): Record<string, string> => ({ code: String(failure.code) });
const FAILURE_LABEL_NAMES = ['code'];

/** A counter of labelled events, counted in plain numbers and written into the metric at scrape time. */
function scrapedCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
): (labels: Record<string, string>) => void {
  const counts = new Map<string, { labels: Record<string, string>; count: number }>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of counts.values()) this.inc(labels, count);
    },
  });
  return (labels) => {
    const key = labelNames.map((label) => labels[label]).join('\n');
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { labels, count: 1 });
  };
}

export function observeRpcCalls(registry: Registry, methods: MethodRegistry): void {
  const timings = new Map<string, Histogram.Internal<string>>();
  const countCall = scrapedCounter(
    registry,
    'umbra_rpc_requests_total',
    'JSON-RPC calls handled, by method (unknown names count as "unknown")',
    ['method'],
  );
  const countFailure = scrapedCounter(
    registry,
    'umbra_rpc_errors_total',
    'JSON-RPC calls answered with an error, by method and JSON-RPC error code',
    ['method', ...FAILURE_LABEL_NAMES],
  );
  const latency = new Histogram({
    name: 'umbra_rpc_request_seconds',
    help: 'Time a JSON-RPC method took to answer, by method',
    labelNames: ['method'],
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  methods.observeCalls((name, seconds, failure) => {
    const method = name ?? UNKNOWN_METHOD;
    let timing = timings.get(method);
    if (!timing) {
      timing = latency.labels(method);
      timings.set(method, timing);
    }
    countCall({ method });
    timing.observe(seconds);
    if (failure) countFailure({ method, ...failureLabels(failure) });
  });
}
