/**
 * Scrapes a server's `/metrics` and reads it with a Prometheus text-format parser. The parser flattens a histogram's
 * series as if it had no labels but `le`, so the count of a labelled histogram's series is read from its `_count`
 * sample line instead.
 */
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

export interface Scrape {
  text: string;
  families: Map<string, PrometheusFamily>;
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  return { text, families: new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family])) };
}

const sameLabels = (a: Record<string, string> = {}, b: Record<string, string>): boolean =>
  Object.keys(b).length === Object.keys(a).length && Object.entries(b).every(([k, v]) => a[k] === v);

/** A gauge's or counter's value for exactly these labels (undefined when the series is absent). */
export function sampleValue(scraped: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = scraped.families.get(name)?.metrics.find((m) => sameLabels(m.labels, labels));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

/**
 * A histogram series' observation count for exactly these labels (0 when the series is absent); without labels, the
 * count of every series together.
 */
export function histogramCount(scraped: Scrape, name: string, labels?: Record<string, string>): number {
  let count = 0;
  for (const line of scraped.text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== `${name}_count`) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k!, v!]),
    );
    if (labels === undefined || sameLabels(found, labels)) count += Number(match[3]);
  }
  return count;
}

/** The label values a histogram's series carry for `label`. */
export function histogramLabels(scraped: Scrape, name: string, label: string): string[] {
  const pattern = new RegExp(`^${name}_count\\{.*\\b${label}="([^"]*)"`);
  return scraped.text.split('\n').flatMap((line) => pattern.exec(line)?.[1] ?? []);
}
