/**
 * The back office's blocks and block items (issue 12): CRUD, the image upload (decoded and
 * re-encoded by sharp), 400s with nothing changed, audit rows, and the home carousel changing on
 * the next request; on both engines.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, blockItems, blocks } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

/** A multipart body with one file part. */
function multipartBody(field: string, filename: string, bytes: Buffer, type = "image/png") {
  const boundary = `----b${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(testEngines())("admin blocks on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  const ids: Record<string, number> = {};
  /** The picture uploaded first, used by the items. */
  let image = "";

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) => app.inject({ method, url, payload, headers });
  const home = async () => (await app.inject("/api/forntend/index")).json();
  const auditRows = async (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
  const upload = async (bytes: Buffer, position = "indexfocus", filename = "a.png") => {
    const { payload, contentType } = multipartBody("image", filename, bytes);
    return app.inject({ method: "POST", url: `/api/pandaadmin/block/image?position=${position}`, payload, headers: { ...headers, "content-type": contentType } });
  };
  const snapshot = async () => ({
    blocks: await t.database.db.select().from(blocks).orderBy(blocks.id),
    items: await t.database.db.select().from(blockItems).orderBy(blockItems.id),
  });

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    headers = (await createTestAdmin(t.database.db, { role: "editor" })).headers;
  });
  afterAll(() => t?.close());

  it("refuses guests (401)", async () => {
    expect((await app.inject("/api/pandaadmin/block/index")).statusCode).toBe(401);
    expect((await app.inject({ method: "POST", url: "/api/pandaadmin/block", payload: { name: "x", position: "indexfocus" } })).statusCode).toBe(401);
  });

  it("creates blocks and lists them as {total, rows} with position and status texts, audited", async () => {
    const focus = await call("POST", "/api/pandaadmin/block", { name: "首页焦点图", position: "indexfocus" });
    expect(focus.json()).toMatchObject({ code: 1, msg: "添加成功", data: { name: "首页焦点图", position: "indexfocus", status: true, status_text: "启用", items: 0 } });
    ids.focus = focus.json().data.id;
    ids.web = (await call("POST", "/api/pandaadmin/block", { name: "合作站点", position: "indexweb", status: false })).json().data.id;
    const table = (await call("GET", "/api/pandaadmin/block/index?sort=id&order=asc")).json();
    expect(table.total).toBe(2);
    expect(table.rows).toEqual([
      { id: ids.focus, name: "首页焦点图", position: "indexfocus", position_text: "首页焦点图", status: true, status_text: "启用", sort: 0, items: 0 },
      { id: ids.web, name: "合作站点", position: "indexweb", position_text: "合作站点", status: false, status_text: "禁用", sort: 0, items: 0 },
    ]);
    const [row] = await auditRows("block.create");
    expect(row).toMatchObject({ targetType: "block", targetId: String(ids.web), detail: { before: null, after: { name: "合作站点", status: false } } });
  });

  it("uploads a picture: decoded, cropped to the carousel's 3:1, re-encoded as WebP without metadata", async () => {
    const png = await sharp({ create: { width: 1800, height: 900, channels: 3, background: "#c03" } })
      .withMetadata({ exif: { IFD0: { Copyright: "secret-gps" } } })
      .png()
      .toBuffer();
    const res = await upload(png);
    expect(res.statusCode).toBe(200);
    const url = res.json().data.url as string;
    expect(url).toMatch(/^\/uploads\/blocks\/[0-9a-z]+-[0-9a-f]{16}\.webp$/);
    const file = path.join(t.dataDir, url.replace(/^\//, ""));
    const meta = await sharp(file).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1200, height: 400 });
    expect(meta.exif).toBeUndefined();
    expect((await app.inject(url)).statusCode).toBe(200);
    image = url;
  });

  it("refuses what is not an image, a missing file and a bad field (400), storing nothing", async () => {
    expect((await upload(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "indexfocus", "x.svg")).json()).toMatchObject({ code: 0, msg: "文件不是可用的图片（支持 JPEG/PNG/WebP/GIF/AVIF）" });
    expect((await upload(Buffer.from("not an image at all"))).statusCode).toBe(400);
    const { payload, contentType } = multipartBody("other", "a.png", Buffer.from("x"));
    const wrongField = await app.inject({ method: "POST", url: "/api/pandaadmin/block/image", payload, headers: { ...headers, "content-type": contentType } });
    expect(wrongField.json()).toMatchObject({ code: 0, msg: "请选择要上传的图片" });
    const notMultipart = await app.inject({ method: "POST", url: "/api/pandaadmin/block/image", payload: {}, headers });
    expect(notMultipart.statusCode).toBe(400);
  });

  it("adds a carousel item: the home page shows it on the next request, audited", async () => {
    expect((await home()).data.indexfocus).toEqual([]);
    const res = await call("POST", `/api/pandaadmin/block/${ids.focus}/items`, { name: "周末派对", url: "/sort/chuanshao", image, sort: 2 });
    expect(res.json()).toMatchObject({ code: 1, data: { block_id: ids.focus, name: "周末派对", url: "/sort/chuanshao", image, sort: 2 } });
    ids.item = res.json().data.id;
    expect((await home()).data.indexfocus).toEqual([{ name: "周末派对", url: "/sort/chuanshao", image }]);
    const [row] = await auditRows("block_item.create");
    expect(row).toMatchObject({ targetType: "block_item", targetId: String(ids.item), detail: { blockId: ids.focus, after: { name: "周末派对" } } });
    const items = (await call("GET", `/api/pandaadmin/block/${ids.focus}/items`)).json().data;
    expect(items).toHaveLength(1);
  });

  it("answers bad input with 400 and a Chinese message, changing nothing", async () => {
    const before = await snapshot();
    const cases: [string, "POST" | "PUT", object, string][] = [
      ["/api/pandaadmin/block", "POST", { name: "", position: "indexfocus" }, "请输入区块名称"],
      ["/api/pandaadmin/block", "POST", { name: "甲", position: "sidebar" }, "请选择区块位置"],
      ["/api/pandaadmin/block", "POST", { name: "甲", position: "indexweb", sort: -1 }, "排序必须是不小于 0 的整数"],
      [`/api/pandaadmin/block/${ids.focus}`, "PUT", { status: "yes" }, "启用状态无效"],
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "", url: "/", image }, "请输入名称"],
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "甲", url: "javascript:alert(1)", image }, "链接地址必须以 http://、https:// 或 / 开头"],
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "甲", url: "//evil.example/", image }, "链接地址必须以 http://、https:// 或 / 开头"],
      // A browser reads a backslash as a slash: /\evil.example/x would leave the site.
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "甲", url: "/\\evil.example/x", image }, "链接地址必须以 http://、https:// 或 / 开头"],
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "甲", url: "/", image: "" }, "请上传图片"],
      [`/api/pandaadmin/block/${ids.focus}/items`, "POST", { name: "甲", url: "/", image: "data:image/png;base64,AA" }, "图片地址无效，请重新上传"],
      [`/api/pandaadmin/block-item/${ids.item}`, "PUT", { sort: "x" }, "排序必须是不小于 0 的整数"],
    ];
    for (const [url, method, body, msg] of cases) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    expect((await call("POST", "/api/pandaadmin/block/999999/items", { name: "甲", url: "/", image })).json()).toMatchObject({ code: 0, msg: "区块不存在" });
    expect((await call("PUT", "/api/pandaadmin/block-item/999999", { name: "甲" })).json()).toMatchObject({ code: 0, msg: "区块内容不存在" });
    expect(await snapshot()).toEqual(before);
  });

  it("edits an item and a block; a disabled block leaves the home page", async () => {
    await call("PUT", `/api/pandaadmin/block-item/${ids.item}`, { name: "周末狂欢", url: "https://example.com/party" });
    expect((await home()).data.indexfocus[0]).toMatchObject({ name: "周末狂欢", url: "https://example.com/party" });
    const [row] = await auditRows("block_item.update");
    expect(row!.detail).toMatchObject({ before: { name: "周末派对" }, after: { name: "周末狂欢" } });
    const off = await call("PUT", `/api/pandaadmin/block/${ids.focus}`, { status: false });
    expect(off.json()).toMatchObject({ code: 1, data: { status: false, status_text: "禁用", items: 1 } });
    expect((await home()).data.indexfocus).toEqual([]);
    await call("PUT", `/api/pandaadmin/block/${ids.focus}`, { status: true });
    expect((await home()).data.indexfocus).toHaveLength(1);
  });

  it("drag-to-sort: a block takes another's place within its position, audited; across positions refused", async () => {
    const second = (await call("POST", "/api/pandaadmin/block", { name: "第二焦点图", position: "indexfocus" })).json().data.id as number;
    const order = async () => ((await call("GET", "/api/pandaadmin/block/index?sort=sort&order=asc")).json().rows as { id: number; position: string }[]).filter((r) => r.position === "indexfocus").map((r) => r.id);
    expect((await call("POST", "/api/pandaadmin/block/sort", { id: second, to: ids.focus })).json()).toMatchObject({ code: 1, msg: "排序已保存" });
    expect(await order()).toEqual([second, ids.focus]);
    expect((await auditRows("block.sort"))[0]).toMatchObject({ targetId: String(second) });
    const across = await call("POST", "/api/pandaadmin/block/sort", { id: second, to: ids.web });
    expect(across.statusCode).toBe(400);
    expect(across.json().msg).toBe("只能在同一位置的区块之间拖动排序");
    expect(await order()).toEqual([second, ids.focus]);
    await call("DELETE", `/api/pandaadmin/block/${second}`);
  });

  it("shows a link saved before the rule as the site's own, never off the site", async () => {
    // A row from before the rule, written behind the write service's back (as old data is).
    await t.database.db.update(blockItems).set({ url: "/\\evil.example/x" }).where(eq(blockItems.id, ids.item)); // behind the write service's back
    // Any change of the block drops the kept home answer.
    await call("PUT", `/api/pandaadmin/block/${ids.focus}`, { name: "首页焦点图" });
    expect((await home()).data.indexfocus[0]).toMatchObject({ name: "周末狂欢", url: "/" });
    await call("PUT", `/api/pandaadmin/block-item/${ids.item}`, { url: "https://example.com/party" });
    expect((await home()).data.indexfocus[0]).toMatchObject({ url: "https://example.com/party" });
  });

  it("deletes an item (its uploaded picture too) and a block, audited", async () => {
    const file = path.join(t.dataDir, image.replace(/^\//, ""));
    expect(existsSync(file)).toBe(true);
    expect((await call("DELETE", `/api/pandaadmin/block-item/${ids.item}`)).json()).toMatchObject({ code: 1, msg: "删除成功" });
    expect(existsSync(file)).toBe(false);
    expect((await home()).data.indexfocus).toEqual([]);
    expect((await auditRows("block_item.delete"))[0]!.detail).toMatchObject({ before: { name: "周末狂欢" } });
    expect((await call("DELETE", `/api/pandaadmin/block/${ids.web}`)).json()).toMatchObject({ code: 1 });
    expect((await auditRows("block.delete"))[0]).toMatchObject({ targetId: String(ids.web), detail: { before: { name: "合作站点" } } });
    expect((await call("DELETE", `/api/pandaadmin/block/${ids.web}`)).statusCode).toBe(404);
  });
});
