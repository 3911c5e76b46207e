/**
 * Records the corpus of the repository plugins' sites (issue 22): each plugin runs its calls
 * against its fixture site (the shapes its test serves, `*.site.ts`), asked at the plugin's own
 * hosts and answered by the fixture; every answer is written as it came to
 * server/modules/sources/parsers/fixtures/<site>/ with a manifest of its URL, status, headers and
 * what the plugin extracted. Run again after a fixture changes:
 *   npx tsx server/modules/plugins/sites/record-corpus.ts
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { summarise } from "../../sources/recorded/replay.js";
import { matchKey } from "../../sources/recorded/replay-network.js";
import { PluginSandbox } from "../sandbox/host.js";
import type { FetchAnswer, GuestFetchRequest } from "../sandbox/protocol.js";
import { pluginCode, startSite, type SiteAnswer, type SiteRequest } from "./harness.js";
import { route as dj36 } from "./36dj.site.js";
import { route as dj72 } from "./72dj.site.js";
import { route as ddddj } from "./ddddj.site.js";
import { route as djduoduo } from "./djduoduo.site.js";
import { route as djkk } from "./djkk.site.js";

type Call = { method: string; args: unknown[] };
/** `unreplayable`: why the plugin's requests cannot be answered by URL (its answers expect that error). */
const SITES: { dir: string; plugin: string; route: (req: SiteRequest) => SiteAnswer | undefined; calls: Call[]; unreplayable?: string }[] = [
  { dir: "36dj", plugin: "36dj.js", route: dj36, calls: [{ method: "search", args: ["说散就散", 1, "music"] }, { method: "getMediaSource", args: [{ id: "8801" }, "standard"] }, { method: "getTopListDetail", args: [{ id: "/xc/", title: "串烧舞曲" }, 1] }] },
  { dir: "72dj", plugin: "72dj.js", route: dj72, calls: [{ method: "getTopListDetail", args: [{ id: "/top/zwwq.htm", title: "中文舞曲榜" }, 1] }, { method: "search", args: ["一路向北", 1, "music"] }, { method: "getMediaSource", args: [{ id: "32853" }, "standard"] }] },
  { dir: "ddddj", plugin: "ddddj.js", route: ddddj, calls: [{ method: "search", args: ["夜店", 1, "music"] }, { method: "getTopListDetail", args: [{ id: "rank_2", title: "独家中文" }, 1] }, { method: "getTopListDetail", args: [{ id: "genre_mycs", title: "慢摇串烧" }, 1] }] },
  {
    dir: "djduoduo",
    plugin: "djduoduo.js",
    route: djduoduo,
    calls: [{ method: "search", args: ["社会摇", 1, "music"] }],
    unreplayable: "Every request carries the plugin's random device id, encrypted, in its query: no recorded URL matches a later run.",
  },
  { dir: "djkk", plugin: "djkk.js", route: djkk, calls: [{ method: "search", args: ["情人桥", 1, "music"] }, { method: "getMediaSource", args: [{ id: "1000", platform: "DJKK", title: "情人桥", artist: "DJ小贝" }, "standard"] }, { method: "getTopListDetail", args: [{ id: "cat_63", title: "中文串烧" }, 1] }] },
];
const ROOT = new URL("../../sources/parsers/fixtures/", import.meta.url);
const extOf = (type: string) => (/json/u.test(type) ? "json" : /html|xml/u.test(type) || !type ? "html" : "txt");

for (const { dir, plugin, route, calls, unreplayable } of SITES) {
  const site = await startSite(route);
  let got: { url: string; status: number; headers: Record<string, string>; body: Buffer }[] = [];
  // The plugin asks its own hosts; the fixture answers every one of them, path and query kept.
  const fetch = async (_i: string, request: GuestFetchRequest): Promise<FetchAnswer> => {
    const asked = new URL(request.url);
    const body = request.body?.text ?? (request.body?.base64 ? Buffer.from(request.body.base64, "base64") : undefined);
    const res = await globalThis.fetch(`${site.baseUrl}${asked.pathname}${asked.search}`, { method: request.method ?? "GET", headers: request.headers, body, redirect: "follow" });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    // Each Set-Cookie apart when iterated: keep them all (the 72DJ challenge sets three).
    const cookies = res.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies.join(", ");
    const bytes = Buffer.from(await res.arrayBuffer());
    got.push({ url: request.url, status: res.status, headers: { "content-type": headers["content-type"] ?? "", ...(headers["set-cookie"] ? { "set-cookie": headers["set-cookie"] } : {}) }, body: bytes });
    const copy = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(copy).set(bytes);
    return { meta: { status: res.status, url: request.url, headers }, bytes: copy };
  };
  const sandbox = new PluginSandbox({ workers: 1, fetch });
  await sandbox.load(plugin, pluginCode(plugin), {});
  rmSync(new URL(`${dir}/`, ROOT), { recursive: true, force: true });
  mkdirSync(new URL(`${dir}/`, ROOT), { recursive: true });
  const byKey = new Map<string, { file: string; url: string; status: number; headers: Record<string, string>; body: Buffer; plugins?: Record<string, unknown> }>();
  for (const [n, call] of calls.entries()) {
    got = [];
    let result;
    try {
      result = summarise("", await sandbox.call(plugin, call.method, call.args));
    } catch (err) {
      console.warn(`${dir}: ${call.method} failed against the fixture, not recorded: ${(err as Error).message}`);
      continue;
    }
    // One answer a URL: a later call that got other bytes at a URL kept before cannot be replayed.
    const before = new Map(byKey);
    if (got.some((g) => before.has(matchKey(g.url)) && !before.get(matchKey(g.url))!.body.equals(g.body))) {
      console.warn(`${dir}: ${call.method} skipped (its URL answered differently before)`);
      continue;
    }
    got.forEach((g, i) => {
      const file = `${call.method}-${n + 1}-${i + 1}.${extOf(g.headers["content-type"] ?? "")}`;
      // The newest answer of a URL, as a replay serves it (a challenge page, then the page).
      byKey.set(matchKey(g.url), { ...byKey.get(matchKey(g.url)), file: byKey.get(matchKey(g.url))?.file ?? file, ...g });
    });
    const last = byKey.get(matchKey(got.at(-1)!.url))!;
    last.plugins = { ...last.plugins, [plugin]: unreplayable ? { call, error: "回放: 没有这个地址的样本", note: unreplayable } : { call, count: result.count, titles: result.titles.slice(0, 3) } };
  }
  const answers = [...byKey.values()].map(({ body, ...a }) => {
    writeFileSync(new URL(`${dir}/${a.file}`, ROOT), body);
    // An answer to a request of a call whose expectation sits on its last answer.
    return a.plugins ? a : { ...a, support: true };
  });
  const manifest = { source: null, origin: `Recorded from the fixture site of plugins/${plugin} (server/modules/plugins/sites/${dir}.site.ts, shapes of its test) by record-corpus.ts.`, plugins: { [plugin]: { variables: {} } }, answers };
  writeFileSync(new URL(`${dir}/manifest.json`, ROOT), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(dir, answers.length, "answers", answers.flatMap((a) => Object.values(a.plugins ?? {}).map((p) => JSON.stringify(p))).join("\n  "));
  await sandbox.close();
  await site.close();
}
