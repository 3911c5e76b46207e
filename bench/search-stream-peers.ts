/**
 * The streamed-search bench's peers (bench/search-stream.ts), each in a process of its own, forked
 * detached (a session of its own, whose autogroup nice the bench sets): the four fixture DJ sites
 * (bench/fixture-sites.ts) and the fetch clients (bench/stream-clients.ts). They stand for other
 * machines: the sites' answers and the visitors' requests must not wait for this machine's cores.
 * Their times come over IPC on the wall clock's scale and are kept here on this process's
 * performance.now() scale (each process has its own time origin).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchClientAddress } from "./bench-server.js";
import type { FixtureAnswered, FixtureSitesInput } from "./fixture-sites.js";
import type { StreamedSearch, StreamSearch } from "./stream-clients.js";

type TimesByKeyword = Map<string, number>;
export interface FixtureSiteTimes {
  code: string;
  latency: number;
  url: string;
  /** keyword → its first request to this site. */
  firstAt: TimesByKeyword;
  /** keyword → the request answered after the latency arrived. */
  arrivedAt: TimesByKeyword;
  /** keyword → the site's own time, from that arrival to its last byte (ms). */
  served: TimesByKeyword;
}

/** Wall clock (another process's times) on this process's performance.now() scale. */
const fromWall = (wallMs: number) => wallMs - performance.timeOrigin;

const forkPeer = (file: string, args: string[]) => fork(fileURLToPath(new URL(file, import.meta.url)), args, { execArgv: ["--import", "tsx"], detached: true });

/** Four sites answering every search after their latencies; each keeps, by keyword, when the request arrived and its own time. */
export async function startFixtureSites(latencies: number[], viaApi: boolean): Promise<{ sites: FixtureSiteTimes[]; process: ChildProcess }> {
  const child = forkPeer("./fixture-sites.ts", [JSON.stringify({ latencies, viaApi } satisfies FixtureSitesInput)]);
  const sites: FixtureSiteTimes[] = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fixture sites exited (${code})`)));
    child.once("message", ({ ready }: { ready: { code: string; latency: number; url: string }[] }) =>
      resolve(ready.map((r) => ({ ...r, firstAt: new Map(), arrivedAt: new Map(), served: new Map() }))),
    );
  });
  child.on("message", (m: FixtureAnswered | { ready: unknown }) => {
    if (!("keyword" in m)) return;
    const site = sites.find((s) => s.code === m.code)!;
    site.firstAt.set(m.keyword, fromWall(m.firstAt));
    site.arrivedAt.set(m.keyword, fromWall(m.arrivedAt));
    site.served.set(m.keyword, m.servedMs);
  });
  return { sites, process: child };
}

/** The fetch clients: `streamOne` asks one stream of `origin`'s search and gives each source's event arrival (ms after it was sent). */
export async function startStreamClients(origin: string) {
  /** When each fetched stream was sent (performance.now()), by keyword. */
  const sentAt = new Map<string, number>();
  /** When the fetch clients had written each stream's request to its socket (performance.now()), by keyword. */
  const headersWrittenAt = new Map<string, number>();
  const child = forkPeer("./stream-clients.ts", []);
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fetch clients exited (${code})`)));
    child.once("message", () => resolve());
  });
  const waiters = new Map<string, (streamed: StreamedSearch) => void>();
  child.on("message", (m: { streamed?: StreamedSearch }) => m.streamed && waiters.get(m.streamed.keyword)?.(m.streamed));

  async function streamOne(keyword: string, query = ""): Promise<Record<string, number>> {
    const search: StreamSearch = { url: `${origin}/api/forntend/indexsearch/stream?keyword=${encodeURIComponent(keyword)}&limit=5${query}`, keyword, from: benchClientAddress() };
    const streamed = await new Promise<StreamedSearch>((resolve) => {
      waiters.set(keyword, resolve);
      child.send({ search });
    });
    waiters.delete(keyword);
    if (streamed.error) throw new Error(`stream of ${keyword}: ${streamed.error}`);
    sentAt.set(keyword, fromWall(streamed.sentAt));
    headersWrittenAt.set(keyword, fromWall(streamed.writtenAt));
    return streamed.arrivals;
  }
  return { sentAt, headersWrittenAt, streamOne, process: child };
}
