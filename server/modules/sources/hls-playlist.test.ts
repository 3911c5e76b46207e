import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isPlaylist, rewritePlaylist, segmentPath, verifySegment } from "./hls-playlist.js";

describe("HLS playlists through our route", () => {
  it("rewrites segment lines and URI attributes against the playlist's address, keeps the tags", () => {
    const playlist = [
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:10",
      '#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x1',
      "#EXTINF:10.0,",
      "seg-0.ts",
      "",
      "#EXTINF:10.0,",
      "https://tspc.vvvdj.com/other/seg-1.ts?t=9",
      "#EXT-X-ENDLIST",
    ].join("\n");
    const out = rewritePlaylist(playlist, "https://tspc.vvvdj.com/c1/2026/123/index.m3u8?t=5", (u) => `/p?u=${encodeURIComponent(u)}`);
    expect(out.split("\n")).toEqual([
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:10",
      `#EXT-X-KEY:METHOD=AES-128,URI="/p?u=${encodeURIComponent("https://tspc.vvvdj.com/c1/2026/123/key.bin")}",IV=0x1`,
      "#EXTINF:10.0,",
      `/p?u=${encodeURIComponent("https://tspc.vvvdj.com/c1/2026/123/seg-0.ts")}`,
      "",
      "#EXTINF:10.0,",
      `/p?u=${encodeURIComponent("https://tspc.vvvdj.com/other/seg-1.ts?t=9")}`,
      "#EXT-X-ENDLIST",
    ]);
  });

  it("a signed link verifies until it expires, and not for another address, item or key", () => {
    const secret = randomBytes(32);
    const target = { source: "vvvdj", id: "123", url: "https://tspc.vvvdj.com/a/seg-0.ts", expires: 10_000 };
    const s = new URL(segmentPath(secret, target), "http://x").searchParams.get("s")!;
    expect(verifySegment(secret, target, s, 9_999)).toBe(true);
    expect(verifySegment(secret, target, s, 10_000)).toBe(false);
    expect(verifySegment(secret, { ...target, url: "https://tspc.vvvdj.com/a/other.mp3" }, s, 0)).toBe(false);
    expect(verifySegment(secret, { ...target, id: "124" }, s, 0)).toBe(false);
    expect(verifySegment(randomBytes(32), target, s, 0)).toBe(false);
    expect(verifySegment(secret, target, "x", 0)).toBe(false);
  });

  it("knows a playlist by its type or its .m3u8 path", () => {
    expect(isPlaylist("https://h/a/index.m3u8?t=1", "text/plain")).toBe(true);
    expect(isPlaylist("https://h/a/x", "application/vnd.apple.mpegurl")).toBe(true);
    expect(isPlaylist("https://h/a/seg.ts", "video/mp2t")).toBe(false);
  });
});
