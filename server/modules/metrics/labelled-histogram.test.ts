import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { LabelledHistogram } from "./labelled-histogram.js";

const BOUNDS = [0.005, 0.01, 0.1, 1];
const OBSERVED: [string[], number][] = [
  [["/", "GET", "2xx"], 0.001],
  [["/", "GET", "2xx"], 0.005],
  [["/", "GET", "2xx"], 0.0051],
  [["/sort/:diyname", "HEAD", "3xx"], 0.5],
  [["/", "GET", "2xx"], 7],
  [["/sutie/:file", "GET", "4xx"], 0],
];

/** Both histograms fed the same observations, each on a registry of its own. */
async function both() {
  const ours = new Registry();
  const theirs = new Registry();
  const labelNames = ["route", "method", "status_class"];
  const mine = new LabelledHistogram("x_seconds", "help \\ text", labelNames, BOUNDS, ours);
  const reference = new Histogram({ name: "x_seconds", help: "help \\ text", labelNames, buckets: BOUNDS, registers: [theirs] });
  for (const [labels, value] of OBSERVED) {
    mine.observe(mine.series(labels), value);
    reference.labels(...labels).observe(value);
  }
  return { ours, theirs, mine };
}

describe("LabelledHistogram", () => {
  it("prints the same text as prom-client's Histogram fed the same observations", async () => {
    const { ours, theirs } = await both();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('x_seconds_bucket{le="0.005",route="/",method="GET",status_class="2xx"} 2');
    expect(text).toContain('x_seconds_bucket{le="+Inf",route="/",method="GET",status_class="2xx"} 4');
  });

  it("gives the same JSON as prom-client's (cluster aggregation reads it)", async () => {
    const { ours, theirs } = await both();
    // prom-client adds an empty `exemplar` to each line (only OpenMetrics prints one).
    const withoutExemplars = JSON.parse(JSON.stringify(await theirs.getMetricsAsJSON(), (key, value) => (key === "exemplar" ? undefined : value)));
    expect(await ours.getMetricsAsJSON()).toStrictEqual(withoutExemplars);
  });

  it("keeps one series per label set, refuses a wrong count of labels, and resets", async () => {
    const { ours, mine } = await both();
    expect(mine.series(["/", "GET", "2xx"])).toBe(mine.series(["/", "GET", "2xx"]));
    expect(() => mine.series(["/", "GET"])).toThrow(TypeError);
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain("x_seconds_bucket");
  });
});
