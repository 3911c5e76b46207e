/** The canaries' schedule (ADR 0049): only on the leader lease's holder, never with interval 0; and the media sniffing. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.js";
import { canaryScheduler } from "./service.js";
import { classify, isChallenge, sniffMedia } from "./classify.js";
import { SourceError } from "../types.js";

const quiet = { debug: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counting() {
  let rounds = 0;
  return { canaries: { runAll: async () => void (rounds += 1) }, rounds: () => rounds };
}

describe("the canary schedule", () => {
  it("runs every interval on the lease holder only; another instance's ticks run nothing", async () => {
    const holder = counting();
    const other = counting();
    const a = canaryScheduler({ canaries: holder.canaries, intervalMs: 20, leader: async () => true, logger: quiet });
    const b = canaryScheduler({ canaries: other.canaries, intervalMs: 20, leader: async () => false, logger: quiet });
    a.start();
    b.start();
    await sleep(150);
    await Promise.all([a.stop(), b.stop()]);
    expect(holder.rounds()).toBeGreaterThanOrEqual(2);
    expect(other.rounds()).toBe(0);
    const after = holder.rounds();
    await sleep(60);
    expect(holder.rounds()).toBe(after);
  });

  it("interval 0 is off: start sets no timer", async () => {
    const off = counting();
    const s = canaryScheduler({ canaries: off.canaries, intervalMs: 0, leader: async () => true, logger: quiet });
    s.start();
    await sleep(80);
    await s.stop();
    expect(off.rounds()).toBe(0);
  });

  it("the lease moving: a round runs once this instance holds it", async () => {
    let leads = false;
    const c = counting();
    const s = canaryScheduler({ canaries: c.canaries, intervalMs: 1_000_000, leader: async () => leads, logger: quiet });
    await s.tick();
    expect(c.rounds()).toBe(0);
    leads = true;
    await s.tick();
    expect(c.rounds()).toBe(1);
    await s.stop();
  });

  it("CANARY_INTERVAL_MS: 30 minutes by default, 0 off, below a second refused", () => {
    expect(loadConfig({}).canaryIntervalMs).toBe(1_800_000);
    expect(loadConfig({ CANARY_INTERVAL_MS: "0" }).canaryIntervalMs).toBe(0);
    expect(loadConfig({ CANARY_INTERVAL_MS: "60000" }).canaryIntervalMs).toBe(60_000);
    expect(() => loadConfig({ CANARY_INTERVAL_MS: "5" })).toThrow(/CANARY_INTERVAL_MS/u);
  });
});

describe("what a canary calls an answer", () => {
  const answer = (status: number, body: string, headers: Record<string, string> = {}) => ({ url: "http://x/", status, headers, bytes: Buffer.from(body) });

  it("knows audio and playlists by their first bytes", () => {
    expect(sniffMedia(Buffer.from("\0\0\0\x20ftypM4A \0\0\0\0", "latin1"))).toBe("m4a");
    expect(sniffMedia(Buffer.from("ID3\x04\0\0\0\0\0\0\0\0\0\0\0\0", "latin1"))).toBe("mp3");
    expect(sniffMedia(Buffer.from([0xff, 0xfb, 0x90, 0x64]))).toBe("mp3");
    expect(sniffMedia(Buffer.from("fLaC\0\0\0\x22"))).toBe("flac");
    expect(sniffMedia(Buffer.from("OggS\0\x02\0\0"))).toBe("ogg");
    expect(sniffMedia(Buffer.from("#EXTM3U\n#EXT-X-"))).toBe("hls");
    expect(sniffMedia(Buffer.from("<!DOCTYPE html><h"))).toBeNull();
    expect(sniffMedia(Buffer.alloc(0))).toBeNull();
  });

  it("a challenge is blocked even behind a 503; a long page with a login's 验证码 is not", () => {
    expect(classify(new SourceError("x", "http", "503", 503), [answer(503, "<title>Just a moment...</title>")])).toBe("blocked");
    expect(isChallenge(answer(200, "", { "cf-mitigated": "challenge" }))).toBe(true);
    const longPage = `<html><head><title>DJ舞曲</title></head><body>${"<li>曲目</li>".repeat(3000)}<input placeholder="验证码"></body></html>`;
    expect(isChallenge(answer(200, longPage))).toBe(false);
    expect(classify(new SourceError("x", "layout", "no list"), [answer(200, longPage)])).toBe("drift");
    expect(classify(new SourceError("x", "network", "ENOTFOUND"), [])).toBe("outage");
    expect(classify(new SourceError("x", "http", "502", 502), [answer(502, "Bad Gateway")])).toBe("outage");
    expect(classify(new SourceError("x", "not_found", "404", 404), [answer(404, "Not Found")])).toBe("drift");
  });
});
