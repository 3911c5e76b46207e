/**
 * A plugin's only way out is the guarded client (issue 21, point 5): these plugins try to reach
 * what they must not, through the sandbox's axios, and meet the SSRF guard and the size cap.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginNetwork, type PluginNetwork } from "./network.js";
import { PluginSandbox } from "./sandbox/host.js";

const warnings: unknown[] = [];
const logger = { warn: (obj: unknown) => void warnings.push(obj) };
let server: http.Server;
let port = 0;
const networks = new Map<string, PluginNetwork>();
let sandbox: PluginSandbox;

/** Loads a plugin whose search fetches `url` and answers what axios told it. */
async function probe(name: string, url: string, network: PluginNetwork): Promise<{ ok: boolean; status?: number; length?: number; message?: string; code?: string }> {
  networks.set(name, network);
  sandbox ??= new PluginSandbox({ fetch: (instance, request) => networks.get(instance)!.answer(request) });
  await sandbox.load(
    name,
    `module.exports = { platform: "${name}", async search() {
      try { const r = await require("axios").get(${JSON.stringify(url)}); return { ok: true, status: r.status, length: String(r.data).length }; }
      catch (e) { return { ok: false, message: e.message, code: e.code }; }
    } };`,
  );
  return (await sandbox.call(name, "search", [], { timeoutMs: 9_000 })) as never;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/redirect-private") {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/fine` });
      return res.end();
    }
    if (req.url === "/huge") {
      // An endless answer (as if 1 GB): written as fast as it is read, until the client goes.
      res.writeHead(200, { "content-type": "text/html" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on("drain", pump);
      return pump();
    }
    res.end("fine");
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await sandbox?.close();
  for (const n of networks.values()) n.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("a plugin's network", () => {
  it("cannot reach the loopback address", async () => {
    const answer = await probe("loopback", `http://127.0.0.1:${port}/fine`, pluginNetwork("p-a", { logger }));
    expect(answer).toMatchObject({ ok: false, code: "ERR_FORBIDDEN_ADDRESS" });
    expect(answer.message).toMatch(/non-public address/u);
  });

  it("cannot reach a name that resolves to a private address", async () => {
    const lookup = ((_host: string, _options: unknown, callback: (e: null, a: { address: string; family: number }[]) => void) => callback(null, [{ address: "10.0.0.5", family: 4 }])) as never;
    const answer = await probe("private-dns", "http://intranet.example/admin", pluginNetwork("p-b", { logger, lookup }));
    expect(answer).toMatchObject({ ok: false, code: "ERR_FORBIDDEN_ADDRESS" });
  });

  it("cannot follow a redirect to a non-public address", async () => {
    const answer = await probe("redirect", `http://127.0.0.1:${port}/redirect-private`, pluginNetwork("p-c", { logger, allowAddresses: ["127.0.0.1"] }));
    expect(answer).toMatchObject({ ok: false, code: "ERR_FORBIDDEN_ADDRESS" });
    expect(answer.message).toMatch(/127\.0\.0\.2/u);
  });

  it("stops an endless answer at the size cap", async () => {
    const started = performance.now();
    const answer = await probe("huge", `http://127.0.0.1:${port}/huge`, pluginNetwork("p-d", { logger, allowAddresses: ["127.0.0.1"], maxBodyBytes: 2 * 1024 * 1024 }));
    expect(answer).toMatchObject({ ok: false });
    expect(answer.message).toMatch(/byte cap/u);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("reaches what OUTBOUND_ALLOW's ranges let through, redirects included", async () => {
    const answer = await probe("lab", `http://127.0.0.1:${port}/redirect-private`, pluginNetwork("p-e", { logger, allowAddresses: ["127.0.0.0/8"] }));
    expect(answer).toEqual({ ok: true, status: 200, length: 4 });
  });

  it("logs each refusal", () => {
    expect(warnings.length).toBeGreaterThanOrEqual(3);
  });
});
