/**
 * The suite form's uploads (issue 12, ADR 0029): covers decoded and re-encoded without
 * metadata, media streamed to disk and checked by content with the duration read from the file;
 * anything refused leaves no file behind. Both engines.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASSETS_DIR } from "../../demo-media/prepare-demo-media.js";
import { createTestAdmin } from "../../testing/admins.js";
import { multipartBody } from "../../testing/multipart.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { mediaChunks } from "./media-chunks.js";
import { sniffMedia, storeMedia } from "./media-upload.js";

const demo = (rel: string) => readFile(path.join(DEMO_ASSETS_DIR, rel));

/** A landscape JPEG whose EXIF says "rotate 90°", with a copyright tag that must not survive. */
async function taggedJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 400, channels: 3, background: "#c0392b" } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Copyright: "secret-camera-owner" } })
    .toBuffer();
}

describe.each(testEngines())("suite form uploads on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let admin: { headers: Record<string, string> };

  const upload = (kind: "cover" | "media", file: Parameters<typeof multipartBody>[0], who: Record<string, string> = admin.headers) => {
    const body = multipartBody(file);
    return app.inject({ method: "POST", url: `/api/pandaadmin/upload/${kind}`, payload: body.payload, headers: { ...body.headers, ...who } });
  };
  const filesIn = async (dir: string) => readdir(path.join(testApp.dataDir, "uploads", dir)).catch(() => [] as string[]);

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    admin = await createTestAdmin(testApp.database.db, { role: "editor" });
  });
  afterAll(() => testApp?.close());

  it("guests and site members are refused (401) before anything is stored", async () => {
    const member = await createTestUser(app);
    const mp3 = await demo("audio/loop1-deep-house-a-minor.mp3");
    for (const who of [{}, member.headers]) {
      expect((await upload("media", { name: "a.mp3", type: "audio/mpeg", bytes: mp3 }, who)).statusCode).toBe(401);
      expect((await upload("cover", { name: "a.jpg", type: "image/jpeg", bytes: await taggedJpeg() }, who)).statusCode).toBe(401);
    }
    expect(await filesIn("media")).toEqual([]);
    expect(await filesIn("covers")).toEqual([]);
  });

  it("a cover is decoded, turned upright, cropped to 600 × 600 WebP, and loses its metadata", async () => {
    const res = await upload("cover", { name: "photo.jpg", type: "image/jpeg", bytes: await taggedJpeg() });
    expect(res.json()).toMatchObject({ code: 1, msg: "封面上传成功" });
    const { url } = res.json().data as { url: string };
    expect(url).toMatch(/^\/uploads\/covers\/[0-9a-z]+-[0-9a-f]{16}\.webp$/);
    const served = await app.inject(url);
    expect(served.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 600, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("secret-camera-owner"))).toBe(false);
  });

  it("a cover that is not a picture, or too large, is refused and nothing is kept", async () => {
    const before = await filesIn("covers");
    const text = await upload("cover", { name: "cover.png", type: "image/png", bytes: Buffer.from("not a picture") });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 0, msg: "封面必须是图片文件 (JPEG、PNG、WebP、GIF、AVIF)" });
    const big = await upload("cover", { name: "big.jpg", type: "image/jpeg", bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 0x41) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 0, msg: "封面图片不能超过 10MB" });
    const none = await upload("cover", null);
    expect(none.json()).toMatchObject({ code: 0, msg: "请选择封面图片" });
    expect(await filesIn("covers")).toEqual(before);
  });

  it("an mp3 is stored with the duration read from its frames, and served with Range", async () => {
    const mp3 = await demo("audio/loop1-deep-house-a-minor.mp3");
    // The declared name and type are ignored: the content says mp3.
    const res = await upload("media", { name: "我的串烧.bin", type: "application/octet-stream", bytes: mp3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, msg: "媒体上传成功", data: { duration: 30, size: mp3.length, playtype: "mp3" } });
    const { url } = res.json().data as { url: string };
    expect(url).toMatch(/^\/uploads\/media\/[0-9a-f]{20}\.mp3$/);
    const part = await app.inject({ url, headers: { range: "bytes=0-99" } });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-type"]).toBe("audio/mpeg");
    expect(part.rawPayload.equals(mp3.subarray(0, 100))).toBe(true);
  });

  it("an m4a is audio (playtype mp3, .m4a) and an mp4 with a picture is video", async () => {
    const m4a = await upload("media", { name: "a.m4a", type: "audio/mp4", bytes: await demo("audio/loop2-disco-d-minor.m4a") });
    expect(m4a.json().data).toMatchObject({ duration: 30, playtype: "mp3" });
    expect(m4a.json().data.url).toMatch(/\.m4a$/);
    const mp4 = await upload("media", { name: "a.mp4", type: "video/mp4", bytes: await demo("video/demo-visualizer.mp4") });
    expect(mp4.json().data).toMatchObject({ duration: 30, playtype: "mp4" });
    expect(mp4.json().data.url).toMatch(/\.mp4$/);
  });

  it("refuses what is not media, or has no readable duration, and keeps no file", async () => {
    const before = await filesIn("media");
    const text = await upload("media", { name: "song.mp3", type: "audio/mpeg", bytes: Buffer.from("这不是音乐\n".repeat(100)) });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 0, msg: "只能上传 mp3、m4a 或 mp4 媒体文件" });
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer();
    expect((await upload("media", { name: "a.mp4", type: "video/mp4", bytes: png })).json()).toMatchObject({ msg: "只能上传 mp3、m4a 或 mp4 媒体文件" });
    // An ID3 tag and then nothing playable.
    const junk = Buffer.concat([Buffer.from("ID3\x03\x00\x00\x00\x00\x00\x00", "latin1"), Buffer.alloc(2000, 0x20)]);
    const noDuration = await upload("media", { name: "a.mp3", type: "audio/mpeg", bytes: junk });
    expect(noDuration.statusCode).toBe(400);
    expect(noDuration.json()).toMatchObject({ msg: "无法读取媒体时长，文件可能已损坏" });
    expect((await upload("media", null)).json()).toMatchObject({ msg: "请选择媒体文件" });
    expect(await filesIn("media")).toEqual(before);
  });

  it("a file cut at the size limit while it streams is refused (413) and its partial file removed", async () => {
    const uploadsDir = path.join(testApp.dataDir, "uploads-limit");
    const mp3 = await demo("audio/loop1-deep-house-a-minor.mp3");
    await expect(storeMedia(uploadsDir, { stream: Readable.from([mp3.subarray(0, 1000)]), truncated: () => true })).rejects.toMatchObject({
      status: 413,
      message: "媒体文件不能超过 1GB",
    });
    expect(await readdir(path.join(uploadsDir, "media"))).toEqual([]);
    // A stream that fails midway (the admin's connection lost) leaves nothing either.
    const broken = new Readable({ read() {} });
    broken.push(mp3.subarray(0, 5000));
    setTimeout(() => broken.destroy(new Error("aborted")), 20);
    await expect(storeMedia(uploadsDir, { stream: broken, truncated: () => false })).rejects.toThrow("aborted");
    expect(await readdir(path.join(uploadsDir, "media"))).toEqual([]);
  });

  it("takes a large file in pieces: each appended at the offset received so far, then checked and kept", async () => {
    const mp3 = await demo("audio/loop1-deep-house-a-minor.mp3");
    const start = await app.inject({ method: "POST", url: "/api/pandaadmin/upload/media/chunks", headers: admin.headers });
    const { uploadId } = start.json().data as { uploadId: string };
    expect(uploadId).toMatch(/^[0-9a-f]{20}$/);
    const put = (offset: number, bytes: Buffer, id = uploadId) =>
      app.inject({
        method: "PUT",
        url: `/api/pandaadmin/upload/media/chunks/${id}?offset=${offset}`,
        payload: bytes,
        headers: { ...admin.headers, "content-type": "application/octet-stream" },
      });
    const piece = 200_000;
    for (let at = 0; at < mp3.length; at += piece) {
      const res = await put(at, mp3.subarray(at, at + piece));
      expect(res.json()).toMatchObject({ code: 1, data: { received: Math.min(at + piece, mp3.length) } });
    }
    // A piece sent again (a retry after a lost answer) is refused with where to go on, not doubled.
    const again = await put(0, mp3.subarray(0, piece));
    expect([again.statusCode, again.json().msg, again.json().data]).toEqual([409, "分片位置不对，请从已收到的位置继续", { received: mp3.length }]);
    // Nothing is served until it is finished.
    expect((await filesIn("media")).filter((f) => !f.startsWith("."))).not.toContain(`${uploadId}.mp3`);
    const done = await app.inject({ method: "POST", url: `/api/pandaadmin/upload/media/chunks/${uploadId}/finish`, headers: admin.headers });
    expect(done.json()).toMatchObject({ code: 1, msg: "媒体上传成功", data: { url: `/uploads/media/${uploadId}.mp3`, duration: 30, size: mp3.length, playtype: "mp3" } });
    expect((await app.inject(`/uploads/media/${uploadId}.mp3`)).rawPayload.equals(mp3)).toBe(true);
    // Finished: the upload is gone.
    expect((await put(mp3.length, Buffer.from("x"))).json()).toMatchObject({ code: 0, msg: "上传已失效，请重新上传" });
  });

  it("pieces: a piece over 8 MB, text finished as media, a cancelled upload and guests are refused, leaving no file", async () => {
    const before = await filesIn("media");
    const begin = async () => (await app.inject({ method: "POST", url: "/api/pandaadmin/upload/media/chunks", headers: admin.headers })).json().data.uploadId as string;
    const put = (id: string, offset: number, bytes: Buffer, who: Record<string, string> = admin.headers) =>
      app.inject({ method: "PUT", url: `/api/pandaadmin/upload/media/chunks/${id}?offset=${offset}`, payload: bytes, headers: { ...who, "content-type": "application/octet-stream" } });
    const finish = (id: string) => app.inject({ method: "POST", url: `/api/pandaadmin/upload/media/chunks/${id}/finish`, headers: admin.headers });

    const big = await begin();
    const tooBig = await put(big, 0, Buffer.alloc(8 * 1024 * 1024 + 1, 1));
    expect([tooBig.statusCode, tooBig.json().msg]).toEqual([413, "分片不能超过 8MB"]);
    expect((await put(big, 0, Buffer.from("ok"))).json().data).toEqual({ received: 2 });
    await app.inject({ method: "DELETE", url: `/api/pandaadmin/upload/media/chunks/${big}`, headers: admin.headers });
    expect((await finish(big)).json()).toMatchObject({ code: 0, msg: "上传已失效，请重新上传" });

    const text = await begin();
    await put(text, 0, Buffer.from("这不是音乐\n".repeat(100)));
    const refused = await finish(text);
    expect([refused.statusCode, refused.json().msg]).toEqual([400, "只能上传 mp3、m4a 或 mp4 媒体文件"]);

    const member = await createTestUser(app);
    const guest = await begin();
    for (const who of [{}, member.headers]) expect((await put(guest, 0, Buffer.from("x"), who)).statusCode).toBe(401);
    expect((await app.inject({ method: "POST", url: "/api/pandaadmin/upload/media/chunks" })).statusCode).toBe(401);
    await app.inject({ method: "DELETE", url: `/api/pandaadmin/upload/media/chunks/${guest}`, headers: admin.headers });
    expect((await put("not-an-upload", 0, Buffer.from("x"))).json()).toMatchObject({ code: 0, msg: "上传已失效，请重新上传" });
    expect(await filesIn("media")).toEqual(before);
  });

  it("a piece cut short (the connection lost) is not half-kept: the upload goes on from before it", async () => {
    const chunks = mediaChunks(path.join(testApp.dataDir, "uploads-pieces"));
    const { uploadId } = await chunks.start();
    expect(await chunks.append(uploadId, 0, Readable.from([Buffer.alloc(1000, 1)]), 1000)).toEqual({ received: 1000 });
    const broken = new Readable({ read() {} });
    broken.push(Buffer.alloc(5000, 2));
    setTimeout(() => broken.destroy(new Error("aborted")), 20);
    await expect(chunks.append(uploadId, 1000, broken, 8000)).rejects.toThrow("aborted");
    expect(await chunks.append(uploadId, 1000, Readable.from([Buffer.alloc(10, 3)]), 10)).toEqual({ received: 1010 });
  });

  it("sniffs by content: ID3, MPEG frames, ftyp; not ADTS AAC or text", () => {
    expect(sniffMedia(Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"))).toBe("mp3");
    expect(sniffMedia(Buffer.from([0xff, 0xfb, 0x92, 0x44]))).toBe("mp3");
    expect(sniffMedia(Buffer.from([0xff, 0xf1, 0x50, 0x80]))).toBeNull();
    expect(sniffMedia(Buffer.from("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00", "latin1"))).toBe("mp4-family");
    expect(sniffMedia(Buffer.from("hello world, no media"))).toBeNull();
  });
});
