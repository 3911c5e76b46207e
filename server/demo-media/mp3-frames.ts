/**
 * MPEG-1/2/2.5 audio frame parsing, enough to count frames for an exact duration and to cut
 * and chain whole frames (the long demo mix). Skips ID3v2/ID3v1 tags and the Xing/Info frame.
 */

export interface FrameHeader {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 (MPEG-2.5). */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Whole frame length in bytes, header included. */
  length: number;
  hasCrc: boolean;
}

export interface Mp3Stream {
  /** Offsets of audio frames (the Xing/Info frame excluded), in file order. */
  offsets: number[];
  lengths: number[];
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** True when every audio frame has the same bitrate. */
  cbr: boolean;
  bitrateKbps: number;
  /** Bytes that were neither frames nor tags (0 for a clean file). */
  junkBytes: number;
  hasXingFrame: boolean;
  durationSec: number;
}

const BITRATES: Record<string, number[]> = {
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = [44_100, 48_000, 32_000];

/** Parses the 4-byte frame header at `offset`; null when there is no valid header there. */
export function readFrameHeader(buf: Uint8Array, offset: number): FrameHeader | null {
  if (offset + 4 > buf.length) return null;
  const b1 = buf[offset + 1];
  const b2 = buf[offset + 2];
  if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return null; // reserved values, or "free format", which we do not support
  }
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const table = version === 1 ? `1-${layer}` : layer === 1 ? "2-1" : "2-2";
  const bitrateKbps = BITRATES[table][bitrateIndex];
  const sampleRate = SAMPLE_RATES[rateIndex] / (version === 1 ? 1 : version === 2 ? 2 : 4);
  const padding = (b2 >> 1) & 1;
  const samplesPerFrame = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const length =
    layer === 1
      ? (Math.floor((12_000 * bitrateKbps) / sampleRate) + padding) * 4
      : Math.floor(((samplesPerFrame / 8) * 1000 * bitrateKbps) / sampleRate) + padding;
  return {
    version,
    layer,
    bitrateKbps,
    sampleRate,
    channels: buf[offset + 3] >> 6 === 3 ? 1 : 2,
    samplesPerFrame,
    length,
    hasCrc: (b1 & 1) === 0,
  };
}

/** Byte offset of the Layer III side information (after the header and optional CRC). */
function sideInfoOffset(h: FrameHeader): number {
  return 4 + (h.hasCrc ? 2 : 0);
}

function isXingFrame(buf: Uint8Array, offset: number, h: FrameHeader): boolean {
  if (h.layer !== 3) return false;
  const sideInfo = h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
  const at = offset + sideInfoOffset(h) + sideInfo;
  const tag = String.fromCharCode(...buf.subarray(at, at + 4));
  return tag === "Xing" || tag === "Info";
}

/**
 * Layer III `main_data_begin`: how many bytes of this frame's audio live in earlier frames
 * (the bit reservoir). Only frames where it is 0 can start a stream cut from another.
 */
export function mainDataBegin(buf: Uint8Array, offset: number, h: FrameHeader): number {
  if (h.layer !== 3) return 0;
  const at = offset + sideInfoOffset(h);
  const first = buf[at];
  return h.version === 1 ? (first << 1) | (buf[at + 1] >> 7) : first;
}

function id3v2Size(buf: Uint8Array): number {
  if (buf.length < 10 || buf[0] !== 0x49 || buf[1] !== 0x44 || buf[2] !== 0x33) return 0; // "ID3"
  const size = ((buf[6] & 0x7f) << 21) | ((buf[7] & 0x7f) << 14) | ((buf[8] & 0x7f) << 7) | (buf[9] & 0x7f);
  const footer = buf[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** Walks every frame of an MPEG audio file. Throws when it holds no audio frame at all. */
export function parseMp3(buf: Uint8Array): Mp3Stream {
  let offset = id3v2Size(buf);
  let end = buf.length;
  if (end - offset >= 128 && String.fromCharCode(...buf.subarray(end - 128, end - 125)) === "TAG") end -= 128;
  const offsets: number[] = [];
  const lengths: number[] = [];
  let first: FrameHeader | null = null;
  let cbr = true;
  let junkBytes = 0;
  let hasXingFrame = false;
  while (offset < end) {
    const h = readFrameHeader(buf, offset);
    // Before the stream is locked on, a header only counts if the next frame (or the end)
    // follows it: that guards against false syncs in tags or junk.
    const fits = h !== null && offset + h.length <= end;
    const valid =
      fits &&
      (offset + h.length === end ||
        readFrameHeader(buf, offset + h.length) !== null ||
        (first !== null && h.version === first.version && h.layer === first.layer && h.sampleRate === first.sampleRate));
    if (!h || !valid) {
      offset++;
      junkBytes++;
      continue;
    }
    if (!first && isXingFrame(buf, offset, h)) {
      hasXingFrame = true;
    } else {
      first ??= h;
      if (h.bitrateKbps !== first.bitrateKbps) cbr = false;
      offsets.push(offset);
      lengths.push(h.length);
    }
    offset += h.length;
  }
  if (!first) throw new Error("no MPEG audio frames found");
  return {
    offsets,
    lengths,
    sampleRate: first.sampleRate,
    channels: first.channels,
    samplesPerFrame: first.samplesPerFrame,
    cbr,
    bitrateKbps: first.bitrateKbps,
    junkBytes,
    hasXingFrame,
    durationSec: (offsets.length * first.samplesPerFrame) / first.sampleRate,
  };
}
