import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { redirectTo, startFixtureSite, text, type FixtureSite } from "../../../testing/fixture-site.js";
import { BUILTIN_SOURCES } from "../registry.js";
import { SourceError } from "../types.js";
import type { LookupFunction } from "./address-guard.js";
import { hostMatcher } from "./host-pattern.js";
import { createMediaStreamer } from "./stream.js";

const mediaHostsOf = (code: string) => BUILTIN_SOURCES.find((s) => s.code === code)!.mediaHosts;

describe("media hosts by pattern", () => {
  it("*.vvvdj.com is any host under vvvdj.com, never the bare domain nor a look-alike", () => {
    const isMedia = hostMatcher(["*.vvvdj.com", "cdn.example.com"]);
    for (const host of ["tspc.vvvdj.com", "t.h.vvvdj.com", "T.H.VVVDJ.COM", "tspc.vvvdj.com.", "cdn.example.com"]) expect(isMedia(host), host).toBe(true);
    for (const host of ["vvvdj.com", "evilvvvdj.com", "vvvdj.com.evil.net", "tspc.vvvdj.co", "x.cdn.example.com", "127.0.0.1"]) expect(isMedia(host), host).toBe(false);
    expect(hostMatcher(["*.com"])("vvvdj.com")).toBe(false); // a pattern names a domain of two labels at least
  });

  it("the built-ins allow their own domains", () => {
    expect(["djuu", "172minx", "vvvdj"].map((code) => mediaHostsOf(code))).toEqual([["*.djuu.com"], ["*.172mix.com"], ["*.vvvdj.com"]]);
  });
});

describe("the media streamer with 清风DJ's media hosts", () => {
  let site: FixtureSite;
  const closers: (() => void)[] = [];
  afterEach(async () => {
    closers.splice(0).forEach((close) => close());
    await site?.close();
  });

  /** Every name resolves to the fixture site, but `internal.vvvdj.com` to a private address. */
  async function streamer() {
    site = await startFixtureSite();
    site.route("/c1/a.m3u8", text("#EXTM3U\n", "application/vnd.apple.mpegurl"));
    site.route("/hop", redirectTo(`http://evilvvvdj.com:0/c1/a.m3u8`));
    const lookup: LookupFunction = (host, _options, callback) => callback(null, [{ address: host === "internal.vvvdj.com" ? "10.0.0.5" : site.host, family: 4 }]);
    const log = captureLog("warn");
    const media = createMediaStreamer({ source: "vvvdj", allowedHosts: mediaHostsOf("vvvdj"), userAgent: "test", logger: log.logger, allowAddresses: [site.host], lookup });
    closers.push(() => media.close());
    return { media, log };
  }

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  };
  const signal = () => AbortSignal.timeout(5_000);

  it("plays from t.h.vvvdj.com and tspc.vvvdj.com alike", async () => {
    const { media } = await streamer();
    for (const host of ["t.h.vvvdj.com", "tspc.vvvdj.com"]) {
      const answer = await media.open(`http://${host}:${site.port}/c1/a.m3u8`, {}, signal());
      answer.body.resume();
      expect(answer.status).toBe(200);
    }
    expect(site.hits.map((h) => h.headers.host)).toEqual([`t.h.vvvdj.com:${site.port}`, `tspc.vvvdj.com:${site.port}`]);
  });

  it("refuses a look-alike host and a redirect to one, before connecting there", async () => {
    const { media, log } = await streamer();
    expect((await refusal(media.open(`http://evilvvvdj.com:${site.port}/c1/a.m3u8`, {}, signal()))).kind).toBe("forbidden_address");
    expect(site.hits).toHaveLength(0);
    expect((await refusal(media.open(`http://t.h.vvvdj.com:${site.port}/hop`, {}, signal()))).kind).toBe("forbidden_address");
    expect(site.hits.map((h) => h.path)).toEqual(["/hop"]);
    expect(log.lines.filter((l) => l.reason === "host is not a media host of this source").map((l) => l.host)).toEqual(["evilvvvdj.com", "evilvvvdj.com"]);
  });

  it("a host matching the pattern is still refused when it resolves to a private address", async () => {
    const { media, log } = await streamer();
    expect((await refusal(media.open(`http://internal.vvvdj.com:${site.port}/c1/a.m3u8`, {}, signal()))).kind).toBe("forbidden_address");
    expect(site.hits).toHaveLength(0);
    expect(log.lines.at(-1)).toMatchObject({ host: "internal.vvvdj.com", address: "10.0.0.5", reason: "resolves to a non-public address" });
  });
});
