import { existsSync } from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES, profilePaths as paths } from "@contracts/account-profile";
import { users } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { multipartBody } from "../../testing/multipart.js";
import { createTestUser, type TestUser } from "../../testing/users.js";

/** The avatar form's body: the file in the `avatar` field unless a test names another. */
const multipart = (file: Parameters<typeof multipartBody>[0], fields: Record<string, string> = {}) =>
  multipartBody(file && { field: "avatar", ...file }, fields);

/** A landscape JPEG, left half red and right half blue, whose EXIF says "rotate 90° clockwise" (6), with a copyright tag. */
async function sidewaysJpeg(): Promise<Buffer> {
  const width = 400;
  const height = 200;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (x < width / 2) raw[i] = 255;
      else raw[i + 2] = 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Copyright: "secret-camera-owner" } })
    .toBuffer();
}

/**
 * A "decompression bomb": a valid PNG of 20000 × 20000 one-bit pixels (400 megapixels) that is
 * only some tens of kilobytes on the wire.
 */
function pngBomb(width = 20_000, height = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const idat = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe.each(testEngines())("avatar upload on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let member: TestUser;

  const upload = (body: { payload: Buffer; headers: Record<string, string> }, who: { headers: Record<string, string> } = member) =>
    app.inject({ method: "POST", url: paths.uploadAvatar, payload: body.payload, headers: { ...body.headers, ...who.headers } });
  const answer = (res: { statusCode: number; json(): { code: number; msg: string; data: unknown } }) => ({
    status: res.statusCode,
    ...res.json(),
  });
  const avatarOf = async (id: number) => (await app.deps.database.db.select().from(users).where(eq(users.id, id)))[0].avatar;
  const avatarFile = (url: string) => path.join(testApp.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    member = await createTestUser(app);
  });
  afterAll(() => testApp?.close());

  it("the test's JPEG really is sideways and carries EXIF", async () => {
    const meta = await sharp(await sidewaysJpeg()).metadata();
    expect(meta).toMatchObject({ width: 400, height: 200, orientation: 6 });
    expect(meta.exif?.includes(Buffer.from("secret-camera-owner"))).toBe(true);
  });

  it("turns a sideways JPEG into an upright 256 × 256 WebP without metadata, served from /uploads", async () => {
    const res = answer(await upload(multipart({ name: "photo.jpg", type: "image/jpeg", bytes: await sidewaysJpeg() })));
    expect(res).toMatchObject({ status: 200, code: 1, msg: "头像上传成功" });
    const { url } = res.data as { url: string };
    expect(url).toMatch(new RegExp(`^/uploads/avatars/${member.id}-[0-9a-f]{16}\\.webp$`));

    const served = await app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("secret-camera-owner"))).toBe(false);
    // Rotated as the EXIF said: the red left half is now on top, the blue right half below.
    const { data, info } = await sharp(served.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [r1, , b1] = pixel(128, 30);
    const [r2, , b2] = pixel(128, 225);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(60);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);

    const session = (await app.inject({ url: "/api/user/isloging", headers: member.headers })).json();
    expect(session.data.avatar).toBe(url);
  });

  it("a PNG made by sharp becomes a square too, and replacing the avatar removes the member's previous file", async () => {
    const png = await sharp({ create: { width: 900, height: 300, channels: 4, background: "#7c3aed" } }).png().toBuffer();
    const first = (await upload(multipart({ name: "a.png", type: "image/png", bytes: png }))).json().data.url as string;
    expect(existsSync(avatarFile(first))).toBe(true);
    const second = answer(await upload(multipart({ name: "b.png", type: "image/png", bytes: png })));
    expect(second).toMatchObject({ status: 200, msg: "头像上传成功" });
    const url = (second.data as { url: string }).url;
    expect(url).not.toBe(first);
    expect(await sharp(avatarFile(url)).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(existsSync(avatarFile(first))).toBe(false);
    expect((await app.inject(first)).statusCode).toBe(404);
  });

  it("decodes the bytes, not the name: a .png that is really text, an SVG and a truncated image are refused", async () => {
    const before = await avatarOf(member.id);
    const text = Buffer.from("这不是图片, just text pretending to be a PNG\n");
    expect(answer(await upload(multipart({ name: "avatar.png", type: "image/png", bytes: text })))).toMatchObject({
      status: 400,
      code: 0,
      msg: "请上传图片文件",
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    expect(answer(await upload(multipart({ name: "avatar.svg", type: "image/svg+xml", bytes: svg })))).toMatchObject({ status: 400, msg: "请上传图片文件" });
    const jpeg = await sidewaysJpeg();
    const cut = jpeg.subarray(0, Math.floor(jpeg.length / 3));
    expect(answer(await upload(multipart({ name: "cut.jpg", type: "image/jpeg", bytes: cut })))).toMatchObject({ status: 400, msg: "请上传图片文件" });
    // The avatar did not change on any of them.
    expect(await avatarOf(member.id)).toBe(before);
  });

  it("refuses a decompression bomb (400 megapixels in a small PNG) without decoding it", async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(200_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: "png", width: 20_000, height: 20_000 });
    // The same kind of picture at a sane size is a fine avatar: the pixel count is what refuses the bomb.
    expect((await upload(multipart({ name: "small.png", type: "image/png", bytes: pngBomb(2_000, 2_000) }))).statusCode).toBe(200);
    const started = Date.now();
    expect(answer(await upload(multipart({ name: "bomb.png", type: "image/png", bytes: bomb })))).toMatchObject({ status: 400, msg: "请上传图片文件" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("refuses files over 5 MB with 413 头像图片不能超过5MB", async () => {
    const big = Buffer.alloc(AVATAR_MAX_BYTES + 1, 0x41);
    expect(answer(await upload(multipart({ name: "big.jpg", type: "image/jpeg", bytes: big })))).toMatchObject({
      status: 413,
      code: 0,
      msg: "头像图片不能超过5MB",
    });
  });

  it("without an avatar file: 请选择头像图片 (no file, another field name, a JSON body)", async () => {
    expect(answer(await upload(multipart(null, { note: "hi" })))).toMatchObject({ status: 400, msg: "请选择头像图片" });
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer();
    expect(answer(await upload(multipart({ field: "file", name: "a.png", type: "image/png", bytes: png })))).toMatchObject({
      status: 400,
      msg: "请选择头像图片",
    });
    const json = await app.inject({ method: "POST", url: paths.uploadAvatar, payload: { avatar: "x" }, headers: member.headers });
    expect(answer(json)).toMatchObject({ status: 400, msg: "请选择头像图片" });
  });

  it("a guest's upload is refused before it is read", async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer();
    expect(answer(await upload(multipart({ name: "a.png", type: "image/png", bytes: png }), { headers: {} }))).toMatchObject({
      status: 401,
      msg: "请先登录",
    });
  });
});
