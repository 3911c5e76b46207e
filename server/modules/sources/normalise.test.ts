import { describe, expect, it } from "vitest";
import { absoluteUrl, classifyKind, cleanTitle, parseDuration, splitArtist } from "./normalise.js";

describe("normalising what the DJ sites write", () => {
  it("drops exclusive prefixes and site suffixes", () => {
    expect(cleanTitle("【DJUU独家】南宁DJ细霖-2022中英文ProgHouse音乐私人订制串烧")).toBe("南宁DJ细霖-2022中英文ProgHouse音乐私人订制串烧");
    expect(cleanTitle("夜曲 (DJ阿远 Electro Rmx)试听,mp3下载 - 172Mix")).toBe("夜曲 (DJ阿远 Electro Rmx)");
  });
  it("splits singles' artist; suites keep their title", () => {
    expect(splitArtist("周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)")).toEqual({ artist: "周杰伦", title: "夜曲(DJ阿远 Electro Rmx 2024)" });
    expect(splitArtist("福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧")).toEqual({ artist: null, title: "福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧" });
  });
  it("classifies mixes by the site, a keyword, size or duration", () => {
    expect(classifyKind({ siteKind: "single", title: "大串烧" })).toBe("single");
    expect(classifyKind({ title: "2024 Club MixSet vol.3" })).toBe("mix");
    expect(classifyKind({ title: "夜曲", sizeBytes: 120 * 1024 * 1024 })).toBe("mix");
    expect(classifyKind({ title: "夜曲", duration: 31 * 60 })).toBe("mix");
    expect(classifyKind({ title: "夜曲", duration: 240 })).toBe("single");
  });
  it("reads durations and makes links absolute", () => {
    expect(parseDuration("03:25")).toBe(205);
    expect(parseDuration("1:02:03")).toBe(3723);
    expect(parseDuration("x")).toBeNull();
    expect(absoluteUrl("/play/123.html", "https://www.djuu.com/search?musicname=a")).toBe("https://www.djuu.com/play/123.html");
    expect(absoluteUrl("https://www.172mix.com/play/9", "https://www.172mix.com/")).toBe("https://www.172mix.com/play/9");
  });
});
