import { describe, expect, it } from "vitest";
import { buildSearchText, likePattern, normalize } from "./search-text.js";

/** Evaluates a LIKE pattern in JS the way PostgreSQL does (%, _ and backslash escapes). */
function like(text: string, pattern: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") re += escapeRe(pattern[++i]);
    else if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`, "u").test(text);
}
const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const search = (title: string, artist: string, keyword: string) =>
  like(buildSearchText(title, artist), likePattern(keyword)!);

describe("buildSearchText", () => {
  const text = buildSearchText("周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)", "周杰伦");

  it("keeps the original title and artist, lower-cased", () => {
    expect(text.startsWith("周杰伦 - 夜曲(dj阿远 electro rmx 2024) 周杰伦")).toBe(true);
  });

  it("adds full pinyin without tones and the initials of every Han run", () => {
    const words = text.split(" ");
    expect(words).toContain("zhoujielun");
    expect(words).toContain("yequ");
    expect(words).toContain("zjl");
    expect(words).toContain("yq");
    expect(words).toContain("ayuan");
    expect(text).not.toMatch(/[āáǎàēéěè]/);
  });

  it("adds each Han character and each adjacent pair as its own word, once", () => {
    const words = text.split(" ");
    expect(words).toContain("夜");
    expect(words).toContain("夜曲");
    expect(words).toContain("杰伦");
    expect(words.filter((w) => w === "周")).toHaveLength(1);
  });

  it("reads polyphonic characters in context and writes ü as v", () => {
    const t = buildSearchText("长沙DJ沈念-重庆女孩绿色串烧", "");
    expect(t).toContain("changsha");
    expect(t).toContain("chongqingnvhailvsechuanshao");
  });

  it("folds full-width Latin", () => {
    expect(buildSearchText("ＤＪ小鱼儿 ＥＤＭ", "")).toContain("dj小鱼儿 edm");
  });

  it("handles missing artist and non-Chinese titles", () => {
    expect(buildSearchText("Alan Walker - Faded (Remix)", null)).toBe("alan walker - faded (remix)");
  });
});

describe("likePattern", () => {
  it("uses word patterns for one or two Han characters and substrings otherwise", () => {
    expect(likePattern("夜")).toBe("% 夜 %");
    expect(likePattern(" 夜曲 ")).toBe("% 夜曲 %");
    expect(likePattern("周杰伦")).toBe("%周杰伦%");
    expect(likePattern("ZJL")).toBe("%zjl%");
  });

  it("escapes LIKE wildcards and rejects blank keywords", () => {
    expect(likePattern("100%_\\")).toBe("%100\\%\\_\\\\%");
    expect(likePattern("   ")).toBeNull();
  });

  it.each([
    ["夜", true],
    ["夜曲", true],
    ["曲", true],
    ["周杰伦", true],
    ["杰伦", true],
    ["zjl", true],
    ["yequ", true],
    ["YeQu", true],
    ["zhoujielun", true],
    ["electro", true],
    ["伦夜", false], // not adjacent in any run
    ["晴天", false],
    ["%", false],
  ])("finds 周杰伦 - 夜曲 by %s: %s", (keyword, found) => {
    expect(search("周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)", "周杰伦", keyword)).toBe(found);
  });

  it("normalizes keywords the same way as the text", () => {
    expect(normalize("  ＺＪＬ  夜曲 ")).toBe("zjl 夜曲");
  });
});
