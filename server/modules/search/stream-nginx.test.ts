/**
 * The streamed search through the cluster's nginx (deploy/nginx/cluster.conf.template, ADR 0041
 * and 0050): the catalogue's event reaches the browser while a slow site is still answering,
 * uncompressed, not held until the answer ends. Skipped where nginx is not installed
 * (scripts/ensure-nginx.sh installs it). Debian's nginx here passed the events on promptly even
 * with proxy buffering on and `X-Accel-Buffering: yes` (tried): the config's own rule is checked
 * separately, since other nginx builds and settings (larger buffers, a cache) do hold them.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNginxConfig, startNginx, type RunningNginx } from "../../../scripts/cluster/nginx.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import type { SourceAdapterEntry } from "../sources/source-provider.js";
import type { SourceAdapter } from "../sources/types.js";
import { freePort } from "../../../scripts/cluster/stack.js";

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const SLOW_MS = 800;

const slowSite: SourceAdapterEntry = {
  code: "slowdj",
  name: "慢站",
  homepage: "https://slowdj.example",
  timeoutMs: 3_000,
  adapter: {
    code: "slowdj",
    name: "慢站",
    search: async () => {
      await new Promise((r) => setTimeout(r, SLOW_MS));
      return { items: [], hasMore: false, total: 0 };
    },
  } as unknown as SourceAdapter,
};

it("the cluster's nginx config turns proxy buffering off for the stream's location", async () => {
  const config = await renderNginxConfig({ prefix: "/tmp/x", listen: "127.0.0.1:1", upstreams: ["127.0.0.1:2"] });
  const location = /location = \/api\/forntend\/indexsearch\/stream \{([^}]*)\}/.exec(config);
  expect(location?.[1]).toMatch(/^\s*proxy_buffering off;$/m);
  expect(location?.[1]).toMatch(/^\s*proxy_pass http:\/\/djsearch;$/m);
  expect(config).toMatch(/^\s*gzip off;$/m);
});

describe.skipIf(!existsSync(NGINX))("the streamed search behind nginx", () => {
  let t: TestApp;
  let nginx: RunningNginx;
  let prefix: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp("pglite", { sourceAdapters: [slowSite] });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const upstream = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    prefix = await mkdtemp(path.join(os.tmpdir(), "nginx-stream-"));
    const listen = `127.0.0.1:${await freePort()}`;
    nginx = await startNginx({ prefix, listen, upstreams: [upstream], accessLog: false });
    base = `http://${listen}`;
  });

  afterAll(async () => {
    await nginx?.stop();
    await t?.close();
    if (prefix) await rm(prefix, { recursive: true, force: true });
  });

  it("passes each event on as it is written: 本站 long before the slow site, uncompressed", async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/forntend/indexsearch/stream?keyword=${encodeURIComponent("夜曲")}`, { headers: { "accept-encoding": "gzip, br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("content-encoding")).toBeNull();
    const arrivals: { event: string; at: number }[] = [];
    let text = "";
    for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const events = [...text.matchAll(/event: (\w+)\ndata: \{"source":"(\w+)"|event: (done)/g)].map((m) => m[2] ?? m[3]!);
      for (const e of events.slice(arrivals.length)) arrivals.push({ event: e, at: performance.now() - started });
    }
    expect(arrivals.map((a) => a.event)).toEqual(["local", "slowdj", "done"]);
    // 本站's event came through before the slow site answered: nginx held nothing back.
    expect(arrivals[0]!.at).toBeLessThan(SLOW_MS - 300);
    expect(arrivals[1]!.at).toBeGreaterThanOrEqual(SLOW_MS - 20);
  });
});
