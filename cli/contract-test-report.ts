/** What `umbra contract test` prints: a line per test, the first difference of a failure, the gas report, or JSON. */
import type { GasSample, TestOutcome } from './contract-test-runner.js';

export interface GasReportRow {
  contract: string;
  entrypoint: string;
  calls: number;
  min: number;
  /** Rounded down. */
  avg: number;
  max: number;
}

/** Compute gas per contract and entry point, in the order first called. */
export function gasReport(samples: readonly GasSample[]): GasReportRow[] {
  const rows = new Map<string, GasReportRow & { sum: number }>();
  for (const { contract, entrypoint, compute } of samples) {
    const id = `${contract}\n${entrypoint}`;
    const row = rows.get(id);
    if (!row) rows.set(id, { contract, entrypoint, calls: 1, min: compute, avg: 0, max: compute, sum: compute });
    else {
      row.calls++;
      row.sum += compute;
      row.min = Math.min(row.min, compute);
      row.max = Math.max(row.max, compute);
    }
  }
  return [...rows.values()].map(({ sum, ...row }) => ({ ...row, avg: Math.floor(sum / row.calls) }));
}

export function textReport(outcomes: readonly TestOutcome[], report: GasReportRow[] | undefined): string {
  const lines: string[] = [];
  let file: string | undefined;
  for (const o of outcomes) {
    if (o.file !== file) {
      if (file !== undefined) lines.push('');
      lines.push(o.file);
      file = o.file;
    }
    lines.push(`  [${o.ok ? 'PASS' : 'FAIL'}] ${o.name} (gas: ${o.gas})`);
    if (o.failure) lines.push(...o.failure.split('\n').map((line) => `         ${line}`));
  }
  if (report) {
    for (const contract of new Set(report.map((row) => row.contract))) {
      const rows = report.filter((row) => row.contract === contract);
      const table = [
        ['entry point', 'calls', 'min', 'avg', 'max'],
        ...rows.map((r) => [r.entrypoint, r.calls, r.min, r.avg, r.max].map(String)),
      ];
      const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
      lines.push('', `${contract} — compute gas`);
      for (const row of table)
        lines.push(
          `  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`,
        );
    }
  }
  const failed = outcomes.filter((o) => !o.ok).length;
  lines.push('', `${outcomes.length} tests: ${outcomes.length - failed} passed, ${failed} failed`);
  return `${lines.join('\n')}\n`;
}

export function jsonReport(outcomes: readonly TestOutcome[], report: GasReportRow[] | undefined): string {
  const failed = outcomes.filter((o) => !o.ok).length;
  return `${JSON.stringify({
    ok: failed === 0,
    passed: outcomes.length - failed,
    failed,
    tests: outcomes,
    ...(report ? { gasReport: report } : {}),
  })}\n`;
}
