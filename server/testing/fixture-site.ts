import http from "node:http";
import type { AddressInfo } from "node:net";
import iconv from "iconv-lite";

/**
 * A local stand-in for an external DJ site (issue 11: the real sites cannot be reached from our
 * machines). Register routes, point an adapter's base URL at `site.url`, and let the fetcher
 * reach it with `allowAddresses: [site.host]`.
 *
 * ```ts
 * const site = await startFixtureSite();
 * site.route("/search", html("<a href='/play/1.html' title='歌手 - 歌名'>…</a>"));
 * site.route(/^\/play\/(\d+)\.html$/, (req, res, match) => html(page(match[1]))(req, res, match));
 * site.route("/slow", withLatency(200, json({ code: 1 })));
 * site.route("/gbk", gbkHtml("<meta charset='gbk'>中文"));
 * …
 * site.hits        // every request: method, path, url, headers, at (performance.now() ms)
 * await site.close();
 * ```
 *
 * A route's pattern is an exact path (query ignored) or a RegExp tried on the path; the first
 * registered match answers, and an unmatched path is 404. Failure modes: `withLatency`, `hang`,
 * `resetMidBody`, `redirectTo`, `status`, `gbkHtml`; media with byte ranges: `file`.
 */

export type FixtureHandler = (req: http.IncomingMessage, res: http.ServerResponse, match: RegExpExecArray | null) => void | Promise<void>;

export interface FixtureHit {
  method: string;
  path: string;
  /** Path and query as requested. */
  url: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** performance.now() when the request arrived (for rate and concurrency checks). */
  at: number;
}

export interface FixtureSite {
  /** `http://127.0.0.1:{port}` */
  url: string;
  /** The address it listens on (pass to the fetcher's `allowAddresses` and `allowedHosts`). */
  host: string;
  port: number;
  hits: FixtureHit[];
  /** Requests being answered right now, and the most at once so far. */
  inFlight(): number;
  maxInFlight(): number;
  route(pattern: string | RegExp, handler: FixtureHandler): FixtureSite;
  close(): Promise<void>;
}

export async function startFixtureSite({ host = "127.0.0.1" }: { host?: string } = {}): Promise<FixtureSite> {
  const routes: { pattern: string | RegExp; handler: FixtureHandler }[] = [];
  const hits: FixtureHit[] = [];
  let active = 0;
  let peak = 0;

  const server = http.createServer((req, res) => {
    const parsed = new URL(req.url ?? "/", "http://fixture");
    hits.push({ method: req.method ?? "GET", path: parsed.pathname, url: req.url ?? "/", query: parsed.searchParams, headers: req.headers, at: performance.now() });
    active += 1;
    peak = Math.max(peak, active);
    res.on("close", () => (active -= 1));
    for (const { pattern, handler } of routes) {
      let match: RegExpExecArray | null = null;
      if (typeof pattern === "string") {
        if (pattern !== parsed.pathname) continue;
      } else {
        match = pattern.exec(parsed.pathname);
        if (!match) continue;
      }
      void Promise.resolve(handler(req, res, match)).catch(() => res.destroy());
      return;
    }
    status(404)(req, res, null);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const bracketed = host.includes(":") ? `[${host}]` : host;

  const site: FixtureSite = {
    url: `http://${bracketed}:${port}`,
    host,
    port,
    hits,
    inFlight: () => active,
    maxInFlight: () => peak,
    route(pattern, handler) {
      routes.push({ pattern, handler });
      return site;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return site;
}

/** A UTF-8 body with a content type (default HTML). */
export function text(body: string, contentType = "text/html; charset=utf-8", code = 200): FixtureHandler {
  return (_req, res) => {
    const bytes = Buffer.from(body, "utf8");
    res.writeHead(code, { "content-type": contentType, "content-length": bytes.length });
    res.end(bytes);
  };
}

export const html = (body: string, code = 200): FixtureHandler => text(body, "text/html; charset=utf-8", code);
export const json = (value: unknown, code = 200): FixtureHandler => text(JSON.stringify(value), "application/json; charset=utf-8", code);

/** A page encoded in GBK. `declare` says where the charset is told: the header, only the page's `<meta>`, or nowhere. */
export function gbkHtml(body: string, declare: "header" | "meta" | "none" = "header"): FixtureHandler {
  return (_req, res) => {
    const bytes = iconv.encode(body, "gbk");
    const contentType = declare === "header" ? "text/html; charset=gbk" : "text/html";
    res.writeHead(200, { "content-type": contentType, "content-length": bytes.length });
    res.end(bytes);
  };
}

/** Only a status (and an optional short body). */
export function status(code: number, body = ""): FixtureHandler {
  return text(body, "text/plain; charset=utf-8", code);
}

/** Answer after `ms` milliseconds. */
export function withLatency(ms: number, handler: FixtureHandler): FixtureHandler {
  return (req, res, match) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => resolve(handler(req, res, match)), ms);
      res.on("close", () => clearTimeout(timer));
    });
}

/** Never answer (the connection stays open until the client gives up or the site closes). */
export const hang: FixtureHandler = () => undefined;

/** Send the headers (with the full length) and part of the body, then drop the connection. */
export function resetMidBody(body = "<html><body>" + "x".repeat(4096), sentBytes = 1024): FixtureHandler {
  return (_req, res) => {
    const bytes = Buffer.from(body, "utf8");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": bytes.length });
    res.write(bytes.subarray(0, sentBytes), () => setTimeout(() => res.socket?.destroy(), 20));
  };
}

/** A redirect to an absolute or relative address (e.g. `http://127.0.0.1:{port}/`, `http://169.254.169.254/`). */
export function redirectTo(location: string, code = 302): FixtureHandler {
  return (_req, res) => {
    res.writeHead(code, { location, "content-length": 0 });
    res.end();
  };
}

/**
 * Bytes served like a media host: `Accept-Ranges`, and a `Range` of one span (`bytes=N-` or
 * `bytes=N-M`) answered 206 with its `Content-Range`; past the end is 416.
 */
export function file(body: Buffer, contentType: string): FixtureHandler {
  return (req, res) => {
    const size = body.length;
    const range = /^bytes=(\d+)-(\d*)$/u.exec(req.headers.range ?? "");
    if (!range) {
      res.writeHead(200, { "content-type": contentType, "content-length": size, "accept-ranges": "bytes" });
      res.end(body);
      return;
    }
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || end < start) {
      res.writeHead(416, { "content-range": `bytes */${size}` });
      res.end();
      return;
    }
    res.writeHead(206, { "content-type": contentType, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${size}`, "accept-ranges": "bytes" });
    res.end(body.subarray(start, end + 1));
  };
}
