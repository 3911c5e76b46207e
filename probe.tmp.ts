import net from "node:net";
import pino from "pino";
import { buildApp } from "./server/app";
import { loadConfig } from "./server/config";
import { createTestDatabase } from "./server/testing/test-db";
import { mkdtemp } from "node:fs/promises";
import os from "node:os"; import path from "node:path";

const dataDir = await mkdtemp(path.join(os.tmpdir(), "probe-"));
const database = await createTestDatabase("pglite");
const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, REQUEST_TIMEOUT_MS: "1000", HEADERS_TIMEOUT_MS: "500" });
const logger = pino({ level: "info" });
const app = await buildApp({ config, database, logger, web: true });
const url = await app.listen({ port: 0, host: "127.0.0.1" });
const port = Number(new URL(url).port);
function raw(req: string, wait = 3000): Promise<string> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.connect(port, "127.0.0.1", () => s.write(req));
    let out = ""; s.on("data", (d) => (out += d)); s.on("close", () => resolve(`[${Date.now()-t0}ms] ` + out)); s.on("error", (e) => resolve("ERR " + e.message));
    setTimeout(() => { s.destroy(); resolve(out + "\n[timeout]"); }, wait);
  });
}
const C = "Connection: close\r\n";
for (const r of [
  "GET // HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET ///sort/club?a=1 HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET //:99999/ HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET /\\evil.com/ HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET / HTTP/1.1\r\nHost: a b\r\n" + C + "\r\n",
  "GET / HTTP/1.1\r\nHost: x:99999\r\n" + C + "\r\n",
  "GET /api/forntend/gettopnav HTTP/1.1\r\nHost: a b\r\n" + C + "\r\n",
  "GET / HTTP/1.1\r\n" + C + "\r\n",
  "GET / HTTP/1.0\r\n\r\n",
  "GET http://evil.com/ HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET * HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET /api/forntend/indexsearch%zz HTTP/1.1\r\nHost: x\r\n" + C + "\r\n",
  "GET /" + "a".repeat(20000) + " HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n" + C + "\r\n",
  "GET /api/x HTTP/1.1\r\nHost: x\r\nCookie: " + "a".repeat(20000) + "\r\n" + C + "\r\n",
  "POST /api/forntend/play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
  "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ",
  "garbage\r\n\r\n",
]) {
  const out = await raw(r);
  console.log("=== " + JSON.stringify(r.slice(0, 50)) + "\n" + out.replace(/\r\n/g, "\n").split("\n").filter(l => !/^(cross-origin|origin-agent|referrer|strict-transport|x-dns|x-download|x-frame|x-permitted|x-xss|Cross-Origin|Origin-Agent|Referrer|Strict|X-DNS|X-Download|X-Frame|X-Permitted|X-XSS|date|Date|content-length|Content-Length)/i.test(l)).join("\n").slice(0, 700));
}
await app.close(); await database.close();
