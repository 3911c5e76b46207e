import type { SeedMedia } from "./generate.js";

/** A fixed DemoMedia for tests: the shapes prepareDemoMedia() returns, no files needed. */
export const demoMediaFixture: SeedMedia = {
  audio: [
    { url: "/media/demo/audio/loop-1.mp3", durationSec: 30.093, mimeType: "audio/mpeg" },
    { url: "/media/demo/audio/loop-2.mp3", durationSec: 30.093, mimeType: "audio/mpeg" },
    { url: "/media/demo/audio/loop-3.m4a", durationSec: 30.02, mimeType: "audio/mp4" },
  ],
  longMix: { url: "/media/demo/mix/demo-mix-66min.mp3", durationSec: 3961.2, mimeType: "audio/mpeg" },
  hls: { url: "/media/demo/hls/demo.m3u8", durationSec: 60, mimeType: "application/vnd.apple.mpegurl" },
  video: { url: "/media/demo/video/demo.mp4", durationSec: 20, mimeType: "video/mp4" },
  covers: ["/media/demo/covers/c1.webp", "/media/demo/covers/c2.webp"],
  banners: ["/media/demo/banners/b1.webp", "/media/demo/banners/b2.webp", "/media/demo/banners/b3.webp"],
  logos: {
    djuu: "/media/demo/logos/djuu.png",
    "172minx": "/media/demo/logos/172minx.png",
    vvvdj: "/media/demo/logos/vvvdj.png",
    local: "/media/demo/logos/local.png",
  },
  longMixTracks: Array.from({ length: 16 }, (_, k) => ({ startSec: k * 247.575 })),
};
