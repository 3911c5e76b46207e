import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, startMediaServer } from "./test-http.js";

let root: string;
let app: FastifyInstance;
let port: number;
const audio = randomBytes(1000);
const big = randomBytes(3 * 1024 * 1024 + 17);
const SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(port, path, headers);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "media-routes-"));
  const media = join(root, "media");
  const uploads = join(root, "uploads");
  await mkdir(join(media, "sub", "dir"), { recursive: true });
  await mkdir(uploads, { recursive: true });
  await writeFile(join(root, "secret.txt"), SECRET);
  await writeFile(join(media, "a.mp3"), audio);
  await writeFile(join(media, "big.mp3"), big);
  await writeFile(join(media, "empty.mp3"), "");
  await writeFile(join(media, ".hidden"), SECRET);
  await writeFile(join(media, "名字 空格.mp3"), audio);
  for (const f of ["b.m4a", "x.m3u8", "s.ts", "s.m4s", "v.mp4", "c.webp", "c.jpg", "c.png", "c.svg", "sub/dir/deep.mp3"]) {
    await writeFile(join(media, f), "data");
  }
  await symlink(join(root, "secret.txt"), join(media, "link-out.txt"));
  await symlink(root, join(media, "linkdir"));
  await symlink(join(media, "a.mp3"), join(media, "link-in.mp3"));
  await writeFile(join(uploads, "evil.html"), "<script>alert(1)</script>");
  await writeFile(join(uploads, "evil.js"), "alert(1)");
  await writeFile(join(uploads, "evil.svg"), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(join(uploads, "noext"), "<html>hi</html>");
  await writeFile(join(uploads, "cover.png"), "png");
  ({ app, port } = await startMediaServer({ mediaDir: media, uploadsDir: uploads }));
});

afterAll(async () => {
  await app?.close();
  await rm(root, { recursive: true, force: true });
});

describe("ranges", () => {
  it("serves the whole file with validators when there is no Range", async () => {
    const r = await get("/media/a.mp3");
    expect(r.status).toBe(200);
    expect(r.body.equals(audio)).toBe(true);
    expect(r.headers["content-length"]).toBe("1000");
    expect(r.headers["accept-ranges"]).toBe("bytes");
    expect(r.headers["content-type"]).toBe("audio/mpeg");
    expect(r.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(r.headers["last-modified"]).toBeTruthy();
    expect(r.headers["cache-control"]).toBe("public, max-age=86400");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=100-", 100, 999],
    ["bytes=-500", 500, 999],
    ["bytes=-5000", 0, 999],
    ["bytes=990-2000", 990, 999],
    ["bytes=999-999", 999, 999],
    [" bytes = 10-19 ".trim(), 10, 19],
  ])("%s → 206 with exactly the asked bytes", async (range, start, end) => {
    const r = await get("/media/a.mp3", { range });
    expect(r.status).toBe(206);
    expect(r.headers["content-range"]).toBe(`bytes ${start}-${end}/1000`);
    expect(r.headers["content-length"]).toBe(String(end - start + 1));
    expect(r.body.equals(audio.subarray(start, end + 1))).toBe(true);
    expect(r.headers["accept-ranges"]).toBe("bytes");
  });

  it("streams a range deep inside a multi-megabyte file exactly", async () => {
    const start = 2_000_001;
    const r = await get("/media/big.mp3", { range: `bytes=${start}-` });
    expect(r.status).toBe(206);
    expect(r.body.length).toBe(big.length - start);
    expect(r.body.equals(big.subarray(start))).toBe(true);
  });

  it.each(["bytes=1000-", "bytes=5000-6000", "bytes=500-100", "bytes=abc", "bytes=-0", "bytes=", "bytes=1-2-3", "bytes=-"])(
    "%s → 416 with Content-Range bytes */size",
    async (range) => {
      const r = await get("/media/a.mp3", { range });
      expect(r.status).toBe(416);
      expect(r.headers["content-range"]).toBe("bytes */1000");
      // The site's envelope with a Chinese message, not the file's type or a bare status.
      expect(r.headers["content-type"]).toContain("application/json");
      expect(JSON.parse(r.body.toString("utf8"))).toMatchObject({ code: 0, msg: "请求的范围无效" });
    },
  );

  it("answers 416 to any range of an empty file and 200 without one", async () => {
    expect((await get("/media/empty.mp3", { range: "bytes=0-" })).status).toBe(416);
    const r = await get("/media/empty.mp3");
    expect(r.status).toBe(200);
    expect(r.headers["content-length"]).toBe("0");
  });

  it("ignores an unknown range unit and serves a multi-range request whole", async () => {
    for (const range of ["items=0-5", "bytes=0-1,5-6"]) {
      const r = await get("/media/a.mp3", { range });
      expect(r.status).toBe(200);
      expect(r.body.length).toBe(1000);
    }
  });

  it("HEAD gives the headers and length without a body", async () => {
    const r = await rawRequest(port, "/media/a.mp3", {}, "HEAD");
    expect(r.status).toBe(200);
    expect(r.headers["content-length"]).toBe("1000");
    expect(r.headers["accept-ranges"]).toBe("bytes");
    expect(r.body.length).toBe(0);
  });

  it("honours If-None-Match, If-Modified-Since, If-Range and If-Match", async () => {
    const { headers } = await get("/media/a.mp3");
    const etag = headers.etag as string;
    const lastModified = headers["last-modified"] as string;
    expect((await get("/media/a.mp3", { "if-none-match": etag })).status).toBe(304);
    expect((await get("/media/a.mp3", { "if-none-match": `"nope", W/${etag}` })).status).toBe(304);
    expect((await get("/media/a.mp3", { "if-none-match": '"nope"' })).status).toBe(200);
    expect((await get("/media/a.mp3", { "if-modified-since": lastModified })).status).toBe(304);
    expect((await get("/media/a.mp3", { "if-modified-since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(200);
    expect((await get("/media/a.mp3", { range: "bytes=0-9", "if-range": etag })).status).toBe(206);
    expect((await get("/media/a.mp3", { range: "bytes=0-9", "if-range": lastModified })).status).toBe(206);
    const stale = await get("/media/a.mp3", { range: "bytes=0-9", "if-range": '"old"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(1000);
    const changed = await get("/media/a.mp3", { "if-match": '"other"' });
    expect(changed.status).toBe(412);
    expect(JSON.parse(changed.body.toString("utf8"))).toMatchObject({ code: 0, msg: "文件已变更，请重新请求" });
    expect((await get("/media/a.mp3", { "if-match": etag })).status).toBe(200);
  });
});

describe("content types", () => {
  it.each([
    ["/media/a.mp3", "audio/mpeg"],
    ["/media/b.m4a", "audio/mp4"],
    ["/media/x.m3u8", "application/vnd.apple.mpegurl"],
    ["/media/s.ts", "video/mp2t"],
    ["/media/s.m4s", "video/iso.segment"],
    ["/media/v.mp4", "video/mp4"],
    ["/media/c.webp", "image/webp"],
    ["/media/c.jpg", "image/jpeg"],
    ["/media/c.png", "image/png"],
    ["/media/c.svg", "image/svg+xml"],
    ["/media/sub/dir/deep.mp3", "audio/mpeg"],
    ["/media/%E5%90%8D%E5%AD%97%20%E7%A9%BA%E6%A0%BC.mp3", "audio/mpeg"],
    ["/media/a.mp3?v=2", "audio/mpeg"],
    ["/media/link-in.mp3", "audio/mpeg"],
    ["/uploads/cover.png", "image/png"],
  ])("%s → %s", async (path, type) => {
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe(type);
    expect(r.headers["content-disposition"]).toBeUndefined();
  });

  it("revalidates HLS playlists every time", async () => {
    expect((await get("/media/x.m3u8")).headers["cache-control"]).toBe("no-cache");
  });

  it.each(["/uploads/evil.html", "/uploads/evil.js", "/uploads/noext"])(
    "%s is an opaque download, never a page or script of ours",
    async (path) => {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/octet-stream");
      expect(r.headers["content-disposition"]).toMatch(/^attachment;/);
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["content-security-policy"]).toMatch(/sandbox/);
    },
  );

  it("an uploaded SVG shows as an image but cannot run script when opened", async () => {
    const r = await get("/uploads/evil.svg");
    expect(r.headers["content-type"]).toBe("image/svg+xml");
    expect(r.headers["content-security-policy"]).toMatch(/default-src 'none'.*sandbox/);
    expect(r.headers["cache-control"]).toBe("public, max-age=3600");
  });
});

describe("path traversal", () => {
  it.each([
    "/media/../secret.txt",
    "/media/%2e%2e/secret.txt",
    "/media/%2E%2E%2Fsecret.txt",
    "/media/..%2fsecret.txt",
    "/media/..%5csecret.txt",
    "/media/..\\secret.txt",
    "/media/sub/../../secret.txt",
    "/media/sub/%2e%2e/%2e%2e/secret.txt",
    "/media/%252e%252e/secret.txt",
    "/media/a.mp3%00.png",
    "/media/%00",
    "/media//etc/passwd",
    "/media/%2fetc%2fpasswd",
    "/media/C:%5cWindows%5cwin.ini",
    "/media/link-out.txt",
    "/media/linkdir/secret.txt",
    "/media/.hidden",
    "/media/sub",
    "/media/sub/",
    "/media/",
    "/media/%ZZ",
    "/media/nope.mp3",
    "/uploads/../media/a.mp3",
    "/uploads/%2e%2e/secret.txt",
  ])("%s is refused", async (path) => {
    const r = await get(path);
    expect([400, 403, 404]).toContain(r.status);
    // (An undecodable path is the router's 400 before this plugin: the app's answer to it is
    // tested in server/http/hostile-input.test.ts.)
    if (path !== "/media/%ZZ") expect(JSON.parse(r.body.toString("utf8"))).toMatchObject({ code: 0, msg: expect.stringMatching(/[\u4e00-\u9fff]/) });
    expect(r.headers["content-disposition"]).toBeUndefined();
    expect(r.body.toString("latin1")).not.toContain(SECRET);
    expect(r.body.equals(audio)).toBe(false);
  });

  it("refuses a path longer than any real media path", async () => {
    expect((await get(`/media/${"a/".repeat(600)}a.mp3`)).status).toBe(404);
  });
});
