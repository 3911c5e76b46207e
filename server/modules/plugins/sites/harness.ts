import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PluginSandbox } from "../sandbox/host.js";
import type { FetchAnswer, GuestFetchRequest } from "../sandbox/protocol.js";

/**
 * What the site-plugin tests share: a local HTTP server standing in for a DJ site (answers in the
 * site's real shapes, written by each test), and a sandbox whose `fetch` sends a plugin's requests
 * to it with Node's fetch, as the server's guarded client would.
 */

export interface SiteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SiteAnswer {
  status?: number;
  headers?: Record<string, string | string[]>;
  body: string | Buffer;
}

export interface FixtureSite {
  baseUrl: string;
  requests: SiteRequest[];
  close(): Promise<void>;
}

/** A site on 127.0.0.1 (port 0); a route answering `undefined` is a 404. */
export async function startSite(route: (request: SiteRequest) => SiteAnswer | undefined): Promise<FixtureSite> {
  const requests: SiteRequest[] = [];
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fixture");
      const request: SiteRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      let answer: SiteAnswer | undefined;
      try {
        answer = route(request);
      } catch (err) {
        answer = { status: 500, body: String(err) };
      }
      answer ??= { status: 404, headers: { "content-type": "text/html" }, body: "<html><title>404</title></html>" };
      res.writeHead(answer.status ?? 200, { "content-type": "text/html; charset=utf-8", ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A plugin's request performed with Node's fetch; Set-Cookie headers arrive joined by ", " as in `Headers`. */
export async function nodeFetch(_instance: string, request: GuestFetchRequest): Promise<FetchAnswer> {
  try {
    const body = request.body?.text ?? (request.body?.base64 ? Buffer.from(request.body.base64, "base64") : undefined);
    const res = await fetch(request.url, { method: request.method ?? "GET", headers: request.headers, body, redirect: "follow" });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => (headers[key] = value));
    // Iterating `Headers` gives each Set-Cookie apart; keep them all, joined as `Headers.get` would.
    const cookies = res.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies.join(", ");
    const meta = { status: res.status, url: res.url, headers };
    if (request.binary) return { meta, bytes: await res.arrayBuffer() };
    return { meta, text: await res.text() };
  } catch (err) {
    return { meta: { error: err instanceof Error ? err.message : String(err), code: "ERR_NETWORK" } };
  }
}

export function newSandbox(): PluginSandbox {
  return new PluginSandbox({ workers: 1, fetch: nodeFetch });
}

const pluginsDir = new URL("../../../../plugins/", import.meta.url);

export function pluginCode(file: string): string {
  return readFileSync(new URL(file, pluginsDir), "utf8");
}

/** Loads `plugins/<file>` pointed at the fixture site through its `baseUrl` variable. */
export async function loadSitePlugin(sandbox: PluginSandbox, file: string, baseUrl: string): Promise<Record<string, unknown>> {
  const loaded = await sandbox.load(file, pluginCode(file), { baseUrl });
  return loaded.exports;
}

export interface MusicItem {
  id: string;
  platform: string;
  title: string;
  artist: string;
  artwork?: string;
  duration?: number;
  [extra: string]: unknown;
}

export interface SearchResult {
  isEnd: boolean;
  data: MusicItem[];
}

export interface TopListGroup {
  title: string;
  data: { id: string; title: string; coverImg?: string; description?: string }[];
}

export interface TopListDetail {
  isEnd: boolean;
  musicList: MusicItem[];
  topListItem: { id: string; title: string };
}

export interface MediaSource {
  url: string;
  headers?: Record<string, string>;
  userAgent?: string;
  quality?: string;
}

export const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
