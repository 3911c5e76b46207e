/**
 * `npm run sources:replay -- --source …` (issue 22) as an operator runs it: a child process on
 * the database the server uses (here a temporary DATA_DIR's embedded database), printing what
 * each recorded answer extracts: a built-in site through its parser, a plugin's source through
 * its version in use beside the one before.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../db/open.js";
import { searchPage } from "../adapters/djuu.fixtures.js";
import { pluginRepo } from "../../plugins/repo.js";
import { yedianPlugin } from "../../plugins/testing/yedian.js";
import { recordedService } from "./service.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const run = promisify(execFile);
let dataDir: string;

function replay(...args: string[]) {
  return run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/sources-replay.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "test" },
    timeout: 60_000,
  }).then(
    (done) => ({ code: 0, ...done }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "replay-cli-"));
  const database = await openDatabase({ dataDir });
  try {
    const recorded = recordedService(database.db);
    await recorded.keep("djuu", { url: "https://www.djuu.com/search?musicname=%E5%A4%9C%E6%9B%B2&cid=0&list=1&page=1", status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: searchPage(), reason: "巡检发现变化" });
    // A GBK page (its charset in the header only) survives as bytes and reads as Chinese.
    const gbk = `<html><body><ul class="search_list"><li><a href="/play/7.html" target="_Pt" title="刀郎 - 西海情歌(DJ串烧)">x</a></li></ul></body></html>`;
    await recorded.keep("djuu", { url: "https://www.djuu.com/djlist/2_1.html", status: 200, headers: { "content-type": "text/html; charset=gbk" }, body: iconv.encode(gbk, "gbk"), reason: "gbk" });
    // A plugin's source: two versions, the newer in use, one sample of its search.
    const repo = pluginRepo(database.db);
    const code = (v: string, prefix = "") => yedianPlugin(v, "https://yedian.example", prefix);
    const sha = (c: string) => createHash("sha256").update(c).digest("hex");
    const v1 = await repo.addVersion({ platform: "夜店DJ", version: "1.0.0", code: code("1.0.0"), sha256: sha(code("1.0.0")), meta: {} });
    const v2 = await repo.addVersion({ platform: "夜店DJ", version: "2.0.0", code: code("2.0.0", "新"), sha256: sha(code("2.0.0", "新")), meta: {} });
    await repo.insert({ platform: "夜店DJ", sourceCode: "p-yediandj", currentVersionId: v2, previousVersionId: v1 });
    const row = (id: number) => `<li data-seconds="245"><img data-src="https://img.example/${id}.jpg"><a class="t" href="/play/${id}" title="DJ阿华 - 夜曲${id}">x</a></li>`;
    await recorded.keep("p-yediandj", { url: "https://yedian.example/search?page=1&key=%E5%A4%9C%E6%9B%B2", status: 200, headers: { "content-type": "text/html" }, body: `<ul class="list">${row(1)}${row(2)}</ul>`, reason: "试用时保存", call: { method: "search", args: ["夜曲", 1, "music"] } });
  } finally {
    await database.close();
  }
}, 120_000);

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm run sources:replay", () => {
  it("prints what djuu's parser extracts from each recorded answer, GBK included", async () => {
    const { code, stdout, stderr } = await replay("--source", "djuu");
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("来源 djuu: 2 个样本");
    expect(stdout).toMatch(/search HTTP 200 \d+ B https:\/\/www\.djuu\.com\/search\?musicname=/u);
    expect(stdout).toContain("内置解析器: 3 条: 周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语) | 【DJUU独家】南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧 | 陈奕迅 - 夜曲一首(DJ小强 Remix)");
    expect(stdout).toContain("内置解析器: 1 条: 刀郎 - 西海情歌(DJ串烧)");
  }, 90_000);

  it("replays a plugin's source through the version before beside the one in use, offline", async () => {
    const { code, stdout, stderr } = await replay("--source", "p-yediandj", "--json");
    expect(code, stderr).toBe(0);
    const answer = JSON.parse(stdout);
    expect(answer.rows).toHaveLength(1);
    expect(answer.rows[0].old).toMatchObject({ version: "1.0.0", count: 2, titles: ["夜曲1", "夜曲2"], error: null });
    expect(answer.rows[0].new).toMatchObject({ version: "2.0.0", count: 2, titles: ["新夜曲1", "新夜曲2"], error: null });
  }, 90_000);

  it("says clearly, in Chinese and with a failing exit code, when there is nothing to replay", async () => {
    const none = await replay("--source", "vvvdj");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("该来源还没有保存的样本");
    const usage = await replay();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("用法");
  }, 90_000);
});
