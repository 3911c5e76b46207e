/**
 * Recorded answers (issue 22, ADR 0051): kept per source within bounds of count and bytes (the
 * oldest dropped first), their bytes as they came (a GBK page survives, its hash is of those
 * bytes), listed, downloaded and deleted by a 超级管理员 only, bad input a Chinese 4xx.
 */
import { createHash } from "node:crypto";
import iconv from "iconv-lite";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../../testing/admins.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { testEngines } from "../../../testing/test-db.js";
import { readRecorded } from "./builtin-readers.js";

describe.each(testEngines())("recorded answers on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let admin: Awaited<ReturnType<typeof createTestAdmin>>;
  const get = (url: string) => app.inject({ url, headers: admin.headers });

  beforeAll(async () => {
    testApp = await createTestApp(engine, { recordedLimits: { count: 3, bytes: 1_000 } });
    app = testApp.app;
    admin = await createTestAdmin(testApp.database.db, { role: "super" });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const keep = (source: string, body: string | Buffer, url = "https://www.djuu.com/search?musicname=x&page=1") =>
    app.services.recorded.keep(source, { url, status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "X-Multi": ["a", "b"] }, body, reason: "canary drift" });

  it("keeps an answer with its URL, time, status, headers, bytes and sha-256, and lists it", async () => {
    const kept = await keep("djuu", "<html>夜曲</html>");
    expect(kept).toMatchObject({ source: "djuu", status: 200, reason: "canary drift", headers: { "content-type": "text/html; charset=utf-8", "x-multi": "a, b" } });
    expect(kept!.sha256).toBe(createHash("sha256").update("<html>夜曲</html>").digest("hex"));
    expect(kept!.bytes).toBe(Buffer.byteLength("<html>夜曲</html>"));
    const list = (await get("/api/pandaadmin/recorded?source=djuu")).json().data;
    expect(list.answers.map((a: { id: number }) => a.id)).toEqual([kept!.id]);
    expect(list.limits).toEqual({ count: 3, bytes: 1_000 });
    expect(list.sources).toContainEqual({ source: "djuu", count: 1, bytes: kept!.bytes });
  });

  it("keeps a GBK page's bytes as they came; the parser reads it through its charset", async () => {
    const page = `<html><head><meta charset="gbk"></head><body><ul class="search_list"><li><a href="/play/9.html" target="_Pt" title="周杰伦 - 夜曲(DJ阿福 Rmx)">x</a></li></ul></body></html>`;
    const bytes = iconv.encode(page, "gbk");
    const kept = await keep("vvvdj-gbk", bytes);
    const res = await get(`/api/pandaadmin/recorded/${kept!.id}/body`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/^attachment/u);
    expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
    expect(createHash("sha256").update(res.rawPayload).digest("hex")).toBe(kept!.sha256);
    const row = await app.services.recorded.get(kept!.id);
    expect(readRecorded("djuu", { ...row, headers: {} }).titles).toEqual(["周杰伦 - 夜曲(DJ阿福 Rmx)"]);
  });

  it("bounds a source in count: the oldest go first, other sources untouched", async () => {
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push((await keep("172minx", `page ${i}`))!.id);
    const left = (await app.services.recorded.list("172minx")).map((a) => a.id);
    expect(left).toEqual(ids.slice(2).reverse());
    expect((await app.services.recorded.list("djuu")).length).toBe(1);
  });

  it("bounds a source in bytes: oldest dropped until the bodies fit; one answer too large alone is not kept", async () => {
    const a = await keep("bytes", "a".repeat(400));
    const b = await keep("bytes", "b".repeat(400));
    const c = await keep("bytes", "c".repeat(400));
    const left = await app.services.recorded.list("bytes");
    expect(left.map((r) => r.id)).toEqual([c!.id, b!.id]);
    expect(left.reduce((n, r) => n + r.bytes, 0)).toBeLessThanOrEqual(1_000);
    expect(a).not.toBeNull();
    expect(await keep("bytes", "d".repeat(1_001))).toBeNull();
    expect((await app.services.recorded.list("bytes")).map((r) => r.id)).toEqual([c!.id, b!.id]);
  });

  it("holds a try's answers apart until one is saved, refuses one too large, and saves within the bounds", async () => {
    for (let i = 0; i < 3; i += 1) await keep("tried", `old ${i}`);
    const held = await app.services.recorded.holdTrial("tried", [
      { url: "https://x.example/search?key=a", status: 200, headers: {}, body: "new", reason: "", call: { method: "search", args: ["a", 1, "music"] } },
      { url: "https://x.example/big", status: 200, headers: {}, body: "b".repeat(1_001), reason: "" },
      { url: "https://x.example/down", status: 0, headers: {}, body: "", reason: "", error: "connect ECONNREFUSED" },
    ]);
    expect(held.map((h) => [h.id === null, h.call, h.error])).toEqual([
      [false, "search", null],
      [true, "", "响应内容过大，无法保存为样本"],
      [true, "", "connect ECONNREFUSED"],
    ]);
    // Held, not listed, not counted.
    expect((await app.services.recorded.list("tried")).map((r) => r.bytes)).toEqual([5, 5, 5]);
    const saved = await app.inject({ method: "POST", url: `/api/pandaadmin/recorded/trial/${held[0]!.id}`, headers: admin.headers });
    expect(saved.json().data).toMatchObject({ source: "tried", reason: "试用时保存", call: { method: "search", args: ["a", 1, "music"] } });
    const left = await app.services.recorded.list("tried");
    expect(left).toHaveLength(3);
    expect(left[0]!.id).toBe(held[0]!.id);
  });

  it("deletes an answer; deleting it again is a 404 in Chinese", async () => {
    const kept = await keep("delete-me", "x");
    const res = await app.inject({ method: "DELETE", url: `/api/pandaadmin/recorded/${kept!.id}`, headers: admin.headers });
    expect(res.json()).toMatchObject({ code: 1, data: { id: kept!.id } });
    expect(await app.services.recorded.list("delete-me")).toEqual([]);
    const again = await app.inject({ method: "DELETE", url: `/api/pandaadmin/recorded/${kept!.id}`, headers: admin.headers });
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe("样本不存在或已删除");
    expect((await get(`/api/pandaadmin/recorded/${kept!.id}/body`)).statusCode).toBe(404);
  });

  it("bad input is a 4xx with a Chinese message, never a 500", async () => {
    for (const url of ["/api/pandaadmin/recorded", "/api/pandaadmin/recorded?source=%E5%A4%9C", "/api/pandaadmin/recorded?source=" + "a".repeat(40)]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().msg, url).toMatch(/[\u4e00-\u9fff]/u);
    }
    for (const id of ["abc", "0", "-1", "99999999999", "1.5"]) {
      const res = await get(`/api/pandaadmin/recorded/${id}/body`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().msg).toBe("样本编号无效");
    }
    const save = await app.inject({ method: "POST", url: "/api/pandaadmin/recorded/trial/123456", headers: admin.headers });
    expect(save.statusCode).toBe(410);
    expect(save.json().msg).toBe("试用结果已过期或已保存，请重新试用");
    const none = await app.inject({ method: "POST", url: "/api/pandaadmin/recorded/replay?source=vvvdj", headers: admin.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toBe("该来源还没有保存的样本，请先在试用中保存为样本");
    const unknown = await app.inject({ method: "POST", url: "/api/pandaadmin/recorded/replay?source=nosuch", headers: admin.headers });
    expect(unknown.statusCode).toBe(404);
  });

  it("is the 超级管理员's: an editor and a visitor are refused", async () => {
    const editor = await createTestAdmin(testApp.database.db, { role: "editor" });
    expect((await app.inject({ url: "/api/pandaadmin/recorded?source=djuu", headers: editor.headers })).statusCode).toBe(403);
    expect((await app.inject({ url: "/api/pandaadmin/recorded?source=djuu" })).statusCode).toBe(401);
  });

  it("replays a built-in source's answers through its parser", async () => {
    const res = await app.inject({ method: "POST", url: "/api/pandaadmin/recorded/replay?source=djuu", headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const [row] = res.json().data.rows;
    expect(row.old).toBeNull();
    // "<html>夜曲</html>" has no djuu list: the parser says the layout changed.
    expect(row.new).toMatchObject({ version: "内置解析器", count: 0, error: expect.stringContaining("版面变了") });
  });
});
