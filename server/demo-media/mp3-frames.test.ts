import { describe, expect, it } from "vitest";
import { mainDataBegin, parseMp3, readFrameHeader } from "./mp3-frames.js";

/** A silent MPEG-1 Layer III frame: 128 kbps, 44.1 kHz, stereo, no CRC. */
function frame(padding = false, xing = false): Buffer {
  const h = readFrameHeader(Buffer.from([0xff, 0xfb, padding ? 0x92 : 0x90, 0x00]), 0)!;
  const buf = Buffer.alloc(h.length);
  buf.set([0xff, 0xfb, padding ? 0x92 : 0x90, 0x00]);
  if (xing) buf.write("Info", 4 + 32, "latin1");
  return buf;
}

describe("readFrameHeader", () => {
  it("decodes MPEG-1 Layer III 128 kbps 44.1 kHz", () => {
    expect(readFrameHeader(frame(), 0)).toMatchObject({
      version: 1, layer: 3, bitrateKbps: 128, sampleRate: 44_100, channels: 2, samplesPerFrame: 1152, length: 417,
    });
    expect(readFrameHeader(frame(true), 0)?.length).toBe(418);
  });

  it("decodes MPEG-2 Layer III (576 samples a frame)", () => {
    const h = readFrameHeader(Buffer.from([0xff, 0xf3, 0x80, 0xc0]), 0);
    expect(h).toMatchObject({ version: 2, layer: 3, bitrateKbps: 64, sampleRate: 22_050, channels: 1, samplesPerFrame: 576 });
  });

  it("rejects reserved and free-format headers", () => {
    for (const bytes of [[0xff, 0xfb, 0xf0, 0], [0xff, 0xfb, 0x00, 0], [0xff, 0xfb, 0x9c, 0], [0xff, 0xe9, 0x90, 0], [0xfe, 0xfb, 0x90, 0]]) {
      expect(readFrameHeader(Buffer.from(bytes), 0)).toBeNull();
    }
  });
});

describe("parseMp3", () => {
  it("counts frames, skipping ID3v2, a Xing/Info frame, junk and ID3v1", () => {
    const id3 = Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x05", "latin1"), Buffer.alloc(5)]);
    const id3v1 = Buffer.concat([Buffer.from("TAG", "latin1"), Buffer.alloc(125)]);
    const audio = Array.from({ length: 10 }, (_, i) => frame(i % 3 === 0));
    const file = Buffer.concat([id3, frame(false, true), ...audio.slice(0, 5), Buffer.from("junk"), ...audio.slice(5), id3v1]);
    const mp3 = parseMp3(file);
    expect(mp3.hasXingFrame).toBe(true);
    expect(mp3.offsets).toHaveLength(10);
    expect(mp3.junkBytes).toBe(4);
    expect(mp3.cbr).toBe(true);
    expect(mp3.durationSec).toBeCloseTo((10 * 1152) / 44_100, 6);
  });

  it("throws on a file with no frames", () => {
    expect(() => parseMp3(Buffer.from("not audio at all"))).toThrow(/no MPEG audio frames/);
  });

  it("reads main_data_begin from the side information", () => {
    const f = frame();
    expect(mainDataBegin(f, 0, readFrameHeader(f, 0)!)).toBe(0);
    f[4] = 0x12;
    f[5] = 0x80;
    expect(mainDataBegin(f, 0, readFrameHeader(f, 0)!)).toBe(0x25);
  });
});
