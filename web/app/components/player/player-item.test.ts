import { describe, expect, it } from "vitest";
import { HLS_MIME, isHls, mimeTypeOf } from "./player-item";

describe("the player's reading of an address's format", () => {
  it("plays a collected item of an HLS-only site through hls.js: its play address carries the hint (ADR 0024)", () => {
    const hinted = "/api/forntend/source-play?source=vvvdj&id=228812&format=hls";
    expect(mimeTypeOf(hinted, "mp3")).toBe(HLS_MIME);
    expect(isHls({ url: hinted, mimeType: "" })).toBe(true);
  });

  it("keeps the other addresses as they were", () => {
    expect(mimeTypeOf("/api/forntend/source-play?source=djuu&id=201001", "mp3")).toBe("audio/mpeg");
    expect(mimeTypeOf("/api/forntend/source-play?source=djuu&id=format=hlsx", "mp3")).toBe("audio/mpeg");
    expect(mimeTypeOf("/media/demo/a.m4a", "mp3")).toBe("audio/mp4");
    expect(mimeTypeOf("/media/demo/a.mp4", "mp4")).toBe("video/mp4");
    expect(mimeTypeOf("https://cdn.example/live/index.m3u8?t=1", "mp3")).toBe(HLS_MIME);
    expect(isHls({ url: "/api/forntend/source-play?source=djuu&id=1", mimeType: "audio/mpeg" })).toBe(false);
  });
});
