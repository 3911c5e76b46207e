/**
 * The streamed-search bench's fetch clients (bench/search-stream.ts): fifteen visitors' requests
 * at once, in a process and a session of their own, which the bench runs above the server
 * (`--fetch-nice`, default -10), as it runs the fixture sites: they stand for other machines. In
 * the bench's own process they shared its loop and threads with Playwright and the bench's
 * bookkeeping, whose pauses (its garbage collection, its JIT) delayed a whole round's events.
 * Node's own HTTP client on kept-alive sockets, reading the answer as strings.
 * Forked with no argument; takes `{ search: StreamSearch }` messages and answers each with
 * `{ streamed: StreamedSearch }`. Times are on the wall clock's scale (performance.timeOrigin +
 * now()), as the fixture sites' and the server's stamps: processes have their own origins.
 */
import http from "node:http";

export interface StreamSearch {
  url: string;
  keyword: string;
  /** `x-forwarded-for`: another visitor each time. */
  from: string;
}
export interface StreamedSearch {
  keyword: string;
  /** When the search was started (wall clock, ms). */
  sentAt: number;
  /** When the request was written to its socket (wall clock, ms). */
  writtenAt: number;
  /** Each source's event: its arrival, ms after `sentAt`. */
  arrivals: Record<string, number>;
  error?: string;
}

const wall = () => performance.timeOrigin + performance.now();
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const EVENT_SOURCE = /event: source\ndata: \{"source":"([^"]+)"/g;

function streamOne({ url, keyword, from }: StreamSearch): Promise<StreamedSearch> {
  const sentAt = wall();
  let writtenAt = NaN;
  const arrivals: Record<string, number> = {};
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers: { "x-forwarded-for": from } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const at = wall() - sentAt;
        // Only what can hold a new event's head: what came before was read already.
        const start = Math.max(0, text.length - 100);
        text += chunk;
        for (const m of text.slice(start).matchAll(EVENT_SOURCE)) arrivals[m[1]!] ??= at;
      });
      res.on("end", () => resolve({ keyword, sentAt, writtenAt, arrivals }));
      res.on("error", (error) => resolve({ keyword, sentAt, writtenAt, arrivals, error: error.message }));
    });
    request.on("finish", () => (writtenAt = wall()));
    request.on("error", (error) => resolve({ keyword, sentAt, writtenAt, arrivals, error: error.message }));
  });
}

// The bench gone, nothing is left to ask.
process.on("disconnect", () => process.exit(0));
process.on("message", (message: { search?: StreamSearch }) => {
  if (message.search) void streamOne(message.search).then((streamed) => process.send!({ streamed }));
});
process.send!({ ready: true });
