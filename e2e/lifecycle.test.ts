import { readdir, rm, stat } from "node:fs/promises";
import { get, type IncomingMessage } from "node:http";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser.js";
import { type RunningSite, startSite } from "./site.js";

/** The biggest demo media file: the generated 60-minute mix. */
async function largestMediaFile(mediaDir: string) {
  let best = { rel: "", size: 0 };
  for (const entry of await readdir(mediaDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const { size } = await stat(full);
    if (size > best.size) best = { rel: path.relative(mediaDir, full), size };
  }
  return best;
}

/** Piped, the log is JSON: it names the 0600 file that holds the first-start password (issue 25). */
const ADMIN_PASSWORD_LINE = /Admin account created\. Username: admin; its password is in \S+initial-admin-password\.txt/;

describe("site lifecycle on embedded defaults", () => {
  let dataDir = "";
  let site: RunningSite | undefined;

  afterAll(async () => {
    await site?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // The first start seeds the demo catalogue: minutes on a loaded machine.
  it("starts on PGlite with the demo catalogue and answers health checks", { timeout: 180_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "djsite-life-"));
    site = await startSite({ dataDir });
    const health = await fetch(`${site.url}/healthz`).then((r) => r.json());
    expect(health).toEqual({ status: "ok", database: "pglite" });
    expect(site.output()).toMatch(ADMIN_PASSWORD_LINE);
  });

  it("serves demo media with HTTP Range", async () => {
    const file = await largestMediaFile(path.join(dataDir, "media"));
    expect(file.size).toBeGreaterThan(20_000_000);
    const res = await fetch(`${site!.url}/media/${file.rel}`, { headers: { Range: "bytes=0-99" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-range")).toBe(`bytes 0-99/${file.size}`);
    expect((await res.arrayBuffer()).byteLength).toBe(100);
  });

  it("renders the home page in Chinese and plays and seeks the long mix in Chromium", async () => {
    const file = await largestMediaFile(path.join(dataDir, "media"));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      const res = await page.goto(site!.url);
      expect(res?.status()).toBe(200);
      expect(await page.title()).toContain("DJ搜索引擎网");
      await expect.poll(() => page.locator("nav").first().innerText()).toContain("首页");

      // Under the site's own CSP: media from 'self' must be allowed.
      const played = await page.evaluate(async (url) => {
        const audio = new Audio(url);
        audio.muted = true;
        await audio.play();
        const until = (ok: () => boolean) =>
          new Promise<void>((resolve, reject) => {
            const started = Date.now();
            const tick = () => (ok() ? resolve() : Date.now() - started > 15_000 ? reject(new Error("timeout")) : setTimeout(tick, 50));
            tick();
          });
        await until(() => audio.currentTime > 0.5);
        const duration = audio.duration;
        audio.currentTime = duration / 2;
        await until(() => audio.currentTime > duration / 2 + 0.5);
        const at = audio.currentTime;
        audio.pause();
        return { duration, at };
      }, `/media/${file.rel}`);
      expect(played.duration).toBeGreaterThan(3600);
      expect(played.at).toBeGreaterThan(played.duration / 2);
      expect(played.at).toBeLessThan(played.duration / 2 + 10);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("finishes an in-flight download on SIGTERM, then exits cleanly", async () => {
    const file = await largestMediaFile(path.join(dataDir, "media"));
    const res = await fetch(`${site!.url}/media/${file.rel}`);
    const reader = res.body!.getReader();
    let received = (await reader.read()).value!.byteLength;

    const exit = site!.stop();
    await new Promise((r) => setTimeout(r, 300));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
    }
    expect(received).toBe(file.size);
    expect(await exit).toBe(0);
    expect(site!.output()).toContain("shut down cleanly");
  });

  it("restarts on the same data without printing the admin password again", async () => {
    site = await startSite({ dataDir, env: { SHUTDOWN_STREAM_GRACE_MS: "1500", SHUTDOWN_TIMEOUT_MS: "30000" } });
    const health = await fetch(`${site.url}/healthz`).then((r) => r.json());
    expect(health.status).toBe("ok");
    expect(site.output()).not.toMatch(ADMIN_PASSWORD_LINE);
  });

  it("on SIGTERM refuses new connections, gives a media stream its grace, then cuts it and exits 0", async () => {
    const file = await largestMediaFile(path.join(dataDir, "media"));
    // A listener who stopped reading: the server cannot finish this answer on its own.
    let received = 0;
    let closed = false;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = get(`${site!.url}/media/${file.rel}`, (res) => {
        res.on("data", (chunk: Buffer) => (received += chunk.byteLength));
        res.once("data", () => {
          res.pause();
          resolve(res);
        });
        res.on("close", () => (closed = true));
        res.on("error", () => undefined);
      });
      req.on("error", reject);
    });
    const signalled = Date.now();
    const exit = site!.stop();
    await new Promise((r) => setTimeout(r, 500));
    const refused = await fetch(`${site!.url}/healthz`).then(() => "answered", (err: Error) => (err.cause as NodeJS.ErrnoException)?.code);
    expect(refused).toBe("ECONNREFUSED");
    expect(closed).toBe(false); // within its grace

    expect(await exit).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(took).toBeLessThan(15_000); // cut at its grace, not held until SHUTDOWN_TIMEOUT_MS
    // What was sent before the cut is still in the socket's buffers; then the stream ends short.
    res.resume();
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(received).toBeLessThan(file.size);
    expect(site!.output()).toContain("media streams cut after their grace");
    expect(site!.output()).toContain("shut down cleanly");
  });
});
