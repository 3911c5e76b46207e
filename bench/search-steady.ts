/**
 * The streamed-search bench's steady load (bench/search-stream.ts `--arrivals poisson`, ADR 0076):
 * 16 searches in flight on average, as a site with that many concurrent searches has them. The
 * fetched streams arrive one by one at random (a Poisson process: exponential gaps) at the rate
 * that keeps `inFlight` of them open (Little's law: rate = in flight / a search's length), and the
 * page searches again and again, each time a short random pause after its last source painted.
 * The bursts (`--arrivals burst`, the default) start all sixteen in the same millisecond instead:
 * sixteen visitors pressing Enter together, the worst case rather than the usual one.
 */

import type { Marks } from "./search-pages.js";

export interface SteadyInput {
  seconds: number;
  /** Fetched streams in flight on average. */
  inFlight: number;
  /** How long a search stays open (ms): its slowest source's latency and a little. */
  searchMs: number;
  nextKeyword: () => string;
  /** One fetched stream: each source's event arrival (ms after it was sent), by source code. */
  streamOne: (keyword: string) => Promise<Record<string, number>>;
  /** One search typed in the page: its performance marks once its last source painted. */
  pageSearch: (keyword: string) => Promise<Marks>;
  /** The bare page's search (bench/search-pages.ts), taken turn about with the page's when given. */
  bareSearch?: (keyword: string) => Promise<Marks>;
  /** The page with a change tried (`--ab-css`), taken in turn with the others when given. */
  variantSearch?: (keyword: string) => Promise<Marks>;
}

export interface SteadyResult {
  /** The page's searches, with the searches in flight when each was sent (its own included). */
  samples: { marks: Marks; keyword: string; inFlightAtRequest: number }[];
  /** The bare page's searches (the reference), when asked. */
  bareSamples: { marks: Marks; keyword: string; inFlightAtRequest: number }[];
  /** The page with the change tried, when asked. */
  variantSamples: { marks: Marks; keyword: string; inFlightAtRequest: number }[];
  streamed: { arrivals: Record<string, number>; keyword: string }[];
  /** Searches in flight (the fetched streams and the page's or the bare page's), read every 50 ms. */
  inFlightSeen: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An exponential gap of that mean (the time between two arrivals of a Poisson process). */
const exponential = (mean: number) => -Math.log(1 - Math.random()) * mean;

export async function runSteady(input: SteadyInput): Promise<SteadyResult> {
  const result: SteadyResult = { samples: [], bareSamples: [], variantSamples: [], streamed: [], inFlightSeen: [] };
  const endAt = performance.now() + input.seconds * 1000;
  let open = 0;
  let pageOpen = 0;
  const pending: Promise<unknown>[] = [];
  const sampler = setInterval(() => performance.now() < endAt && result.inFlightSeen.push(open + pageOpen), 50);

  // The fetched streams, until the end; the ramp (the first searchMs) is not counted.
  const countFrom = performance.now() + input.searchMs;
  const arrivals = (async () => {
    const meanGap = input.searchMs / input.inFlight;
    while (performance.now() < endAt) {
      const keyword = input.nextKeyword();
      open += 1;
      const startedAt = performance.now();
      pending.push(
        input.streamOne(keyword).then((arrivals) => {
          open -= 1;
          if (startedAt >= countFrom) result.streamed.push({ arrivals, keyword });
        }),
      );
      await sleep(exponential(meanGap));
    }
  })();

  // The page, after the ramp, until the end.
  await sleep(input.searchMs);
  // Turn about: the page, the bare page, the page with the change tried (those given).
  const turns = [
    { search: input.pageSearch, samples: result.samples },
    ...(input.bareSearch ? [{ search: input.bareSearch, samples: result.bareSamples }] : []),
    ...(input.variantSearch ? [{ search: input.variantSearch, samples: result.variantSamples }] : []),
  ];
  for (let turn = 0; performance.now() < endAt - input.searchMs; turn++) {
    const { search, samples } = turns[turn % turns.length]!;
    const keyword = input.nextKeyword();
    const inFlightAtRequest = open + 1;
    pageOpen = 1;
    const marks = await search(keyword);
    pageOpen = 0;
    samples.push({ marks, keyword, inFlightAtRequest });
    await sleep(100 + Math.random() * 400);
  }
  await arrivals;
  await Promise.all(pending);
  clearInterval(sampler);
  result.inFlightSeen = result.inFlightSeen.slice(Math.ceil(input.searchMs / 50));
  return result;
}
