import { describe, expect, it } from "vitest";
import { SourceError } from "../types.js";
import { encodePlayUrl } from "./vvvdj-playurl.encoder.js";
import { decodePlayUrl, findPlayUrlCall, uptExpiresAt } from "./vvvdj-playurl.js";

const KEY = "k3Vq8ZtL0xWm5RcY7bNd2HfJ9sPg4AeU";
// 2026-12-22 23:59:59 China time (15:59:59 UTC), 30 days after issue.
const EXPIRY = Date.UTC(2026, 11, 22, 15, 59, 59) / 1000;
const HLS = `//tspc.vvvdj.com/c1/2026/11/123456-ab12cd/123456.m3u8?upt=5f3e2d1c${EXPIRY}&news`;

function errorOf(run: () => unknown): SourceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }
  throw new Error("expected a SourceError");
}

describe("清风DJ play address decoder", () => {
  it("decodes a hand-checked call, forward and backward", () => {
    // Key "AB" (65, 66). '/' 47 = 2·56('8') − 65('A'); 'a' 97 = 2·81('Q') − 65; 'b' 98 = 2·82('R') − 66('B');
    // '.' 46 = 2·56 − 66; 'c' 99 = 2·82 − 65; 'n' 110 = 2·88('X') − 66. Index 103 is k = 1, 106 is k = 2.
    expect(decodePlayUrl("e08103810" + "3Q103R1068106R103X106", "AB")).toBe("https://ab.cn/");
    // Backward, k = 1 is the key's last character ('B') and k = 2 its first ('A').
    expect(decodePlayUrl("e181068106Q106R1038103R106X103", "AB")).toBe("https://ab.cn/");
  });

  it("round-trips real-looking HLS addresses in both modes, with https: added", () => {
    for (const mode of ["e0", "e1"] as const) {
      for (const seed of [1, 2, 3]) {
        const encoded = encodePlayUrl(HLS, KEY, mode, seed);
        expect(encoded).toMatch(/^e[01](.\d{3})+$/u);
        expect(decodePlayUrl(encoded, KEY)).toBe(`https:${HLS}`);
      }
    }
    const other = "//tspc.vvvdj.com/c5/2025/03/998877-0f0e0d/998877.m3u8?upt=a1b2c3d41745510399&news";
    expect(decodePlayUrl(encodePlayUrl(other, KEY, "e1"), KEY)).toBe(`https:${other}`);
  });

  it("reads direction from the mode: forward groups read backward never give the address back", () => {
    const forward = encodePlayUrl(HLS, KEY, "e0");
    let decoded: string | SourceError;
    try {
      decoded = decodePlayUrl(`e1${forward.slice(2)}`, KEY);
    } catch (error) {
      decoded = error as SourceError;
    }
    expect(decoded).not.toBe(`https:${HLS}`);
    // Any mode but e0 reads backward (SOURCES.md: forward only for e0).
    expect(decodePlayUrl(`x9${encodePlayUrl(HLS, KEY, "e1").slice(2)}`, KEY)).toBe(`https:${HLS}`);
  });

  it("refuses bad input as a changed layout", () => {
    const good = encodePlayUrl(HLS, KEY, "e0");
    expect(errorOf(() => decodePlayUrl(good.slice(0, -1), KEY)).kind).toBe("layout"); // wrong group length
    expect(errorOf(() => decodePlayUrl(`e0A${String(100 + 3 * (KEY.length + 1))}`, KEY)).kind).toBe("layout"); // k past the key
    expect(errorOf(() => decodePlayUrl("e0A100", KEY)).kind).toBe("layout"); // k = 0
    expect(errorOf(() => decodePlayUrl("e0A104", KEY)).kind).toBe("layout"); // not a multiple of 3
    expect(errorOf(() => decodePlayUrl("e0A1x3", KEY)).kind).toBe("layout"); // non-digits
    expect(errorOf(() => decodePlayUrl(good, "")).kind).toBe("layout");
    expect(errorOf(() => decodePlayUrl("e0", KEY)).kind).toBe("layout");
    // Decodes to characters, but not to an address.
    expect(errorOf(() => decodePlayUrl(encodePlayUrl("no address", KEY, "e0").replace(/ /gu, ""), KEY)).kind).toBe("layout");
    expect(errorOf(() => decodePlayUrl(encodePlayUrl("noaddress", KEY, "e0"), KEY)).kind).toBe("layout");
  });

  it("finds the call in a page, whatever the quotes and spacing", () => {
    const encoded = encodePlayUrl(HLS, KEY, "e1");
    expect(findPlayUrlCall(`<script>var x=new Player();playurl=x.O000O0OO0O0OO('${encoded}','${KEY}');x.play(playurl);</script>`)).toEqual({ encoded, key: KEY });
    expect(findPlayUrlCall(`playurl = o.O0O0O00O0O0O( "${encoded}" , "${KEY}" );`)).toEqual({ encoded, key: KEY });
    expect(findPlayUrlCall("var playurl = '';")).toBeNull();
  });

  it("reads the upt expiry as Unix seconds (inferred), and nothing from other tokens", () => {
    expect(uptExpiresAt(`https:${HLS}`)).toBe(EXPIRY * 1000);
    expect(new Date(uptExpiresAt(`https:${HLS}`)!).toISOString()).toBe("2026-12-22T15:59:59.000Z");
    expect(uptExpiresAt("https://tspc.vvvdj.com/c1/x.m3u8")).toBeUndefined();
    expect(uptExpiresAt("https://tspc.vvvdj.com/c1/x.m3u8?upt=abcdef")).toBeUndefined();
    expect(uptExpiresAt("https://tspc.vvvdj.com/c1/x.m3u8?upt=5f3e2d1c9999999999")).toBeUndefined();
  });
});
