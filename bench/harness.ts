/**
 * Shared benchmark plumbing: time an operation, print a readable table, and write bench/results/<name>.json as an
 * array of rows {case, impl, unit, value}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchRow {
  case: string;
  impl: string;
  unit: string;
  value: number;
}

export interface TimeOptions {
  /** Keep running until at least this many milliseconds have passed (default 1000). */
  minMs?: number;
  /** Run at least this many iterations (default 1). */
  minIterations?: number;
}

/** Microseconds per call of `fn`, after one warm-up call. */
export function timeIt(fn: () => unknown, options: TimeOptions = {}): number {
  const minMs = options.minMs ?? 1000;
  const minIterations = options.minIterations ?? 1;
  fn();
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsedNs = 0n;
  while (iterations < minIterations || elapsedNs < BigInt(minMs) * 1_000_000n) {
    fn();
    iterations++;
    elapsedNs = process.hrtime.bigint() - start;
  }
  return Number(elapsedNs) / 1000 / iterations;
}

/** Same as timeIt for asynchronous operations (awaited one after another). */
export async function timeItAsync(fn: () => Promise<unknown>, options: TimeOptions = {}): Promise<number> {
  const minMs = options.minMs ?? 1000;
  const minIterations = options.minIterations ?? 1;
  await fn();
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsedNs = 0n;
  while (iterations < minIterations || elapsedNs < BigInt(minMs) * 1_000_000n) {
    await fn();
    iterations++;
    elapsedNs = process.hrtime.bigint() - start;
  }
  return Number(elapsedNs) / 1000 / iterations;
}

const format = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(3);

/** Prints rows as a table (one line per case, one column per impl, ratios when there are two impls) and writes the JSON. */
export function runBench(name: string, rows: BenchRow[]): void {
  const impls = [...new Set(rows.map((r) => r.impl))];
  const cases = [...new Set(rows.map((r) => r.case))];
  const header = ['case', 'unit', ...impls, ...(impls.length === 2 ? [`${impls[0]}/${impls[1]}`] : [])];
  const lines = cases.map((c) => {
    const unit = rows.find((r) => r.case === c)!.unit;
    const values = impls.map((i) => rows.find((r) => r.case === c && r.impl === i)?.value);
    const ratio =
      impls.length === 2 && values[0] !== undefined && values[1] !== undefined
        ? [format(values[0] / values[1]) + '×']
        : impls.length === 2
          ? ['-']
          : [];
    return [c, unit, ...values.map((v) => (v === undefined ? '-' : format(v))), ...ratio];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const show = (cells: string[]): string =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(show(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(show(line));
  const dir = join('bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(rows, null, 2) + '\n');
  console.log(`wrote ${join(dir, `${name}.json`)}`);
}
