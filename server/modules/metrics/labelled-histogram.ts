/**
 * A histogram whose label sets are chosen once and kept (`series`), so an observation is a
 * bucket search and three additions: prom-client's own child validates and hashes its labels on
 * every `observe`, a cost paid on every answer of the site (issue 23, point 8). It registers on
 * a prom-client Registry like prom-client's metrics and prints the same text (`_bucket` by `le`,
 * cumulative, then `+Inf`, `_sum`, `_count`).
 */
import type { Metric, Registry } from "prom-client";

export interface HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  value: number;
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
}

export class LabelledHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly known = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one label set, one value per label name in order; made on first use. */
  series(values: readonly string[]): HistogramSeries {
    const key = values.join("\u0000");
    let found = this.known.get(key);
    if (!found) {
      if (values.length !== this.labelNames.length) throw new TypeError(`${this.name}: ${this.labelNames.length} label values expected`);
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!]));
      found = { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.known.set(key, found);
    }
    return found;
  }

  observe(series: HistogramSeries, value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.counts[i]!++;
    series.sum += value;
    series.count++;
  }

  reset(): void {
    this.known.clear();
  }

  /** For the registry's text format: each line's own labels, the series' labels shared. */
  getForPromString() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.exported(true) };
  }

  /** As prom-client's `get()`: every line with all of its labels. */
  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.exported(false) };
  }

  private exported(shared: boolean): ExportedValue[] {
    const values: ExportedValue[] = [];
    const line = (metricName: string, own: Record<string, string | number>, series: HistogramSeries, value: number) =>
      values.push(shared ? { value, metricName, labels: own, sharedLabels: { ...series.labels } } : { value, metricName, labels: { ...own, ...series.labels } });
    for (const series of this.known.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        line(`${this.name}_bucket`, { le }, series, cumulative);
      });
      line(`${this.name}_bucket`, { le: "+Inf" }, series, series.count);
      line(`${this.name}_sum`, {}, series, series.sum);
      line(`${this.name}_count`, {}, series, series.count);
    }
    return values;
  }
}
