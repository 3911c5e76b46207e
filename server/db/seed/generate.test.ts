import { describe, expect, it } from "vitest";
import { demoMediaFixture as media } from "./demo-media.fixture.js";
import { generateMix, generateSingle, type SeedContext } from "./generate.js";
import { generatePlay } from "./plays.js";

const ctx: SeedContext = { media, categoryIds: new Map([["zhongwen", 7]]), now: new Date("2026-06-01T00:00:00Z") };

describe("demo generators", () => {
  it("are deterministic per index, whatever was generated before", () => {
    const a = [generateMix(41, ctx), generateSingle(41, ctx)];
    generateMix(40, ctx);
    expect([generateMix(41, ctx), generateSingle(41, ctx)]).toEqual(a);
    expect(generateMix(42, ctx).title).not.toEqual(a[0].title);
    const targets = [{ id: 1, durationSec: 100 }, { id: 2, durationSec: 3600 }];
    expect(generatePlay(9, targets, ctx.now)).toEqual(generatePlay(9, targets, ctx.now));
  });

  it("makes mix 0 the hour-long local mix whose tracklist follows the real track starts", () => {
    const mix = generateMix(0, ctx);
    expect(mix).toMatchObject({ sourceSite: "local", playUrl: media.longMix.url, categoryId: 7, playtype: "mp3" });
    const leaves = mix.djlist!.flatMap((folder) => folder.items ?? []);
    expect(leaves.map((l) => l.start)).toEqual(media.longMixTracks!.map((t) => Math.floor(t.startSec)));
    expect(leaves[1].label).toMatch(/^2\. /);
  });

  it("puts the HLS stream on vvvdj and the video on djuu as mp4", () => {
    expect(generateMix(1, ctx)).toMatchObject({ sourceSite: "vvvdj", playUrl: media.hls.url, playtype: "mp3" });
    expect(generateMix(2, ctx)).toMatchObject({ sourceSite: "djuu", playUrl: media.video.url, playtype: "mp4" });
  });

  it("makes single 0 周杰伦 - 夜曲 in the single-title convention", () => {
    expect(generateSingle(0, ctx)).toMatchObject({ title: "周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)", artist: "周杰伦" });
  });

  it("keeps play events inside the last 100 days and at least 30 s long", () => {
    const targets = [{ id: 1, durationSec: 45 }, { id: 2, durationSec: null }];
    for (let j = 0; j < 2000; j++) {
      const p = generatePlay(j, targets, ctx.now);
      const age = ctx.now.getTime() - (p.playedAt as Date).getTime();
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThanOrEqual(100 * 86_400_000);
      expect(p.secondsListened).toBeGreaterThanOrEqual(30);
    }
  });
});
