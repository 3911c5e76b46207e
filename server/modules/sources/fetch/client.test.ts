import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { gbkHtml, hang, html, redirectTo, resetMidBody, startFixtureSite, status, withLatency, type FixtureSite } from "../../../testing/fixture-site.js";
import { SourceError } from "../types.js";
import { createSourceFetcher, type SourceFetcherOptions } from "./client.js";

let site: FixtureSite;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
});

async function setup(options: Partial<SourceFetcherOptions> = {}) {
  site = await startFixtureSite();
  const client = createSourceFetcher({
    source: "djuu",
    allowedHosts: [site.host],
    allowAddresses: [site.host],
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: captureLog().logger,
    minIntervalMs: 0,
    ...options,
  });
  closers.push(() => client.close());
  return client;
}

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

describe("the source fetcher", () => {
  it("sends the source's User-Agent, and a request's own user-agent header wins (any case)", async () => {
    const client = await setup({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Test" });
    site.route("/", html("ok"));
    await client.fetch({ url: `${site.url}/` });
    await client.fetch({ url: `${site.url}/`, headers: { "User-Agent": "App/1.0 com.djuu.player" } });
    await client.fetch({ url: `${site.url}/`, headers: { "user-agent": "Other/2.0" } });
    expect(site.hits.map((h) => h.headers["user-agent"])).toEqual(["Mozilla/5.0 (Windows NT 10.0; Win64; x64) Test", "App/1.0 com.djuu.player", "Other/2.0"]);
  });

  it("returns statuses instead of throwing, with the headers and the final address", async () => {
    const client = await setup();
    site.route("/forbidden", status(403, "Forbidden")).route("/moved", redirectTo("/forbidden", 301));
    const answer = await client.fetch({ url: `${site.url}/moved` });
    expect(answer).toMatchObject({ status: 403, url: `${site.url}/forbidden`, text: "Forbidden" });
    expect(answer.headers["content-type"]).toContain("text/plain");
  });

  it("follows at most maxRedirects redirects", async () => {
    const client = await setup({ maxRedirects: 2 });
    site.route(/^\/r(\d)$/, (req, res, match) => redirectTo(`/r${Number(match![1]) + 1}`)(req, res, match));
    const error = await failure(client.fetch({ url: `${site.url}/r0` }));
    expect(error.kind).toBe("http");
    expect(site.hits.map((h) => h.path)).toEqual(["/r0", "/r1", "/r2"]);
  });

  it("keeps its headers across a redirect, but not cookies or credentials to another host", async () => {
    const client = await setup();
    const other = await startFixtureSite({ host: "127.0.0.2" });
    closers.push(() => void other.close());
    other.route("/", html("there"));
    site.route("/same", redirectTo("/there")).route("/there", html("here"));
    site.route("/away", redirectTo(`${other.url}/`));
    const away = createSourceFetcher({
      source: "djuu",
      allowedHosts: [site.host, other.host],
      allowAddresses: [site.host, other.host],
      userAgent: "DJSearchBot/1.0",
      logger: captureLog().logger,
      minIntervalMs: 0,
    });
    closers.push(() => away.close());
    const headers = { Referer: "https://www.djuu.com/", Cookie: "session=1" };
    expect((await client.fetch({ url: `${site.url}/same`, headers })).text).toBe("here");
    expect(site.hits.at(-1)!.headers).toMatchObject({ referer: "https://www.djuu.com/", cookie: "session=1" });
    expect((await away.fetch({ url: `${site.url}/away`, headers })).text).toBe("there");
    expect(other.hits[0]!.headers.referer).toBe("https://www.djuu.com/");
    expect(other.hits[0]!.headers.cookie).toBeUndefined();
  });

  it("gives up on a slow answer at its time limit (timeout)", async () => {
    const client = await setup({ timeoutMs: 150 });
    site.route("/slow", withLatency(2_000, html("late")));
    const began = performance.now();
    const error = await failure(client.fetch({ url: `${site.url}/slow` }));
    expect(error.kind).toBe("timeout");
    expect(performance.now() - began).toBeLessThan(600);
  });

  it("takes a new time limit at run time: requests started after it use it, one in flight keeps its own", async () => {
    const client = await setup({ timeoutMs: 2_000, concurrency: 4 });
    site.route("/hang", hang);
    const began = performance.now();
    const inFlight = failure(client.fetch({ url: `${site.url}/hang` }));
    client.setTimeoutMs(150);
    const error = await failure(client.fetch({ url: `${site.url}/hang` }));
    expect(error).toMatchObject({ kind: "timeout", message: "no complete answer within 150 ms" });
    expect(performance.now() - began).toBeLessThan(1_000);
    const first = await inFlight;
    expect(first.message).toBe("no complete answer within 2000 ms");
    expect(performance.now() - began).toBeGreaterThan(1_900);
  });

  it("bounds the whole request, body included: headers sent then silence is a timeout", async () => {
    const client = await setup({ timeoutMs: 200 });
    site.route("/trickle", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-length": 1000 });
      res.write("<html>"); // and never the rest
    });
    expect((await failure(client.fetch({ url: `${site.url}/trickle` }))).kind).toBe("timeout");
  });

  it("stops when the caller aborts (a hanging site)", async () => {
    const client = await setup();
    site.route("/hang", hang);
    const error = await failure(client.fetch({ url: `${site.url}/hang`, signal: AbortSignal.timeout(100) }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("caller");
  });

  it("reports a connection reset mid-body as a network error", async () => {
    const client = await setup();
    site.route("/reset", resetMidBody());
    expect((await failure(client.fetch({ url: `${site.url}/reset` }))).kind).toBe("network");
  });

  it("reports a refused connection as a network error", async () => {
    const client = await setup();
    const port = site.port;
    await site.close();
    expect((await failure(client.fetch({ url: `http://${site.host}:${port}/` }))).kind).toBe("network");
  });

  it("refuses a body over the cap, declared or streamed", async () => {
    const client = await setup({ maxBodyBytes: 10_000 });
    site.route("/big", html("x".repeat(20_000)));
    site.route("/chunked", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }); // no length: chunked
      for (let i = 0; i < 20; i += 1) res.write("y".repeat(1_000));
      res.end();
    });
    site.route("/fits", html("z".repeat(9_000)));
    expect((await failure(client.fetch({ url: `${site.url}/big` }))).kind).toBe("http");
    expect((await failure(client.fetch({ url: `${site.url}/chunked` }))).kind).toBe("http");
    expect((await client.fetch({ url: `${site.url}/fits` })).text).toHaveLength(9_000);
  });

  it("decodes GBK pages from the header, from <meta charset>, or as the adapter expects", async () => {
    const client = await setup();
    const page = (meta: string) => `<html><head>${meta}</head><body>夜曲 - 周杰伦(DJ阿福 串烧)</body></html>`;
    site.route("/header", gbkHtml(page(""), "header"));
    site.route("/meta", gbkHtml(page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'), "meta"));
    site.route("/none", gbkHtml(page(""), "none"));
    expect((await client.fetch({ url: `${site.url}/header` })).text).toContain("夜曲 - 周杰伦(DJ阿福 串烧)");
    expect((await client.fetch({ url: `${site.url}/meta` })).text).toContain("夜曲 - 周杰伦(DJ阿福 串烧)");
    expect((await client.fetch({ url: `${site.url}/none` })).text).not.toContain("夜曲");
    expect((await client.fetch({ url: `${site.url}/none`, encoding: "gbk" })).text).toContain("夜曲 - 周杰伦(DJ阿福 串烧)");
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const client = await setup({ concurrency: 2 });
    site.route("/slow", withLatency(100, html("ok")));
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.fetch({ url: `${site.url}/slow` })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(site.maxInFlight()).toBe(2);
    const starts = site.hits.map((h) => h.at);
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(180); // three waves of two
  });

  it("starts requests at least minIntervalMs apart", async () => {
    const client = await setup({ minIntervalMs: 80, concurrency: 4 });
    site.route("/", html("ok"));
    const first = performance.now();
    await client.fetch({ url: `${site.url}/` }); // connected: the next ones need no connect
    await Promise.all(Array.from({ length: 5 }, () => client.fetch({ url: `${site.url}/` })));
    // A request arrives after it starts, however the machine delays it in between: the sixth
    // start is at least 5 × 80 ms after the first, so its arrival is too. (Gaps between arrivals
    // are not a measure: on a busy machine one late arrival shortens the gap to the next.)
    const arrivals = site.hits.map((h) => h.at);
    expect(arrivals).toHaveLength(6);
    expect(arrivals.at(-1)! - first).toBeGreaterThanOrEqual(5 * 80 - 5); // timer granularity
  });

  it("lets a queued request leave the queue when its caller gives up", async () => {
    const client = await setup({ concurrency: 1 });
    site.route("/slow", withLatency(300, html("ok")));
    const first = client.fetch({ url: `${site.url}/slow` });
    const queued = failure(client.fetch({ url: `${site.url}/slow`, signal: AbortSignal.timeout(50) }));
    expect((await queued).kind).toBe("timeout");
    await first;
    expect(site.hits).toHaveLength(1);
  });
});
