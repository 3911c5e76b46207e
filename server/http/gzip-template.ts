import { constants, crc32, deflateRawSync, inflateRawSync } from "node:zlib";
import { ownBytes } from "../lib/own-bytes.js";

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A stored deflate block holds at most this many bytes. */
const STORED_MAX = 0xffff;
/** An empty final stored block: ends the deflate stream after the last part. */
const FINAL_EMPTY_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

interface Part {
  deflated: Buffer;
  crc: number;
  length: number;
  /** Multiplies a CRC by x^(8·length): what appending this part does to the CRC before it. */
  shift: number;
}

/**
 * A text that is the same for many requests except for short holes (a suite page's view
 * count, an API answer's end). Each fixed part is deflated once, ended with a full flush: the
 * stream is then byte-aligned and refers nothing back across it, so a request only writes its
 * holes as "stored" (uncompressed) blocks between the parts and the gzip trailer. The CRC-32 of
 * the whole is combined from the parts' (crc32_combine), so no fixed byte is read again per
 * request. (RFC 1951 3.2.4, RFC 1952.)
 */
export class GzipTemplate {
  private readonly parts: Part[];

  /** `parts`: the fixed text around the holes (one more than there are holes). */
  constructor(parts: readonly string[]) {
    this.parts = parts.map((text) => {
      const bytes = Buffer.from(text);
      return {
        deflated: bytes.length ? ownBytes(deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_FULL_FLUSH })) : Buffer.alloc(0),
        crc: crc32(bytes),
        length: bytes.length,
        shift: shiftFor(bytes.length),
      };
    });
  }

  get holes(): number {
    return this.parts.length - 1;
  }

  /** Bytes held: the compressed parts. */
  get bytesHeld(): number {
    return this.parts.reduce((sum, p) => sum + p.deflated.length, 0) + 64 * this.parts.length;
  }

  /** The whole text, uncompressed (inflated from the kept parts: for the rare client without gzip). */
  plain(holes: readonly string[]): Buffer {
    const chunks: Buffer[] = [];
    this.parts.forEach((part, i) => {
      if (part.length) chunks.push(inflateRawSync(part.deflated, { finishFlush: constants.Z_SYNC_FLUSH }));
      if (i < holes.length) chunks.push(Buffer.from(holes[i]));
    });
    return Buffer.concat(chunks);
  }

  /** The whole text with these holes as one gzip stream. */
  gzip(holes: readonly string[]): Buffer {
    if (holes.length !== this.holes) throw new Error(`gzip template: ${this.holes} holes, ${holes.length} given`);
    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    this.parts.forEach((part, i) => {
      chunks.push(part.deflated);
      crc = (multModP(part.shift, crc) ^ part.crc) >>> 0;
      length += part.length;
      if (i >= holes.length) return;
      const hole = Buffer.from(holes[i]);
      for (let at = 0; at < hole.length; at += STORED_MAX) {
        const bytes = hole.subarray(at, at + STORED_MAX);
        const head = Buffer.alloc(5); // BFINAL 0, BTYPE 00 (stored), LEN, NLEN
        head.writeUInt16LE(bytes.length, 1);
        head.writeUInt16LE(~bytes.length & 0xffff, 3);
        chunks.push(head, bytes);
      }
      if (hole.length) crc = crc32(hole, crc);
      length += hole.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc, 0);
    trailer.writeUInt32LE(length % 2 ** 32, 4);
    chunks.push(FINAL_EMPTY_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}

// CRC-32 arithmetic over GF(2) (zlib's crc32_combine: multmodp and x2nmodp), reflected polynomial.
const POLY = 0xedb88320;
const X2N: number[] = [];
{
  let p = 1 << 30; // x^1
  X2N.push(p);
  for (let n = 1; n < 32; n++) X2N.push((p = multModP(p, p)));
}

function multModP(a: number, b: number): number {
  let m = 1 << 31;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(8·length) modulo the CRC polynomial. */
function shiftFor(length: number): number {
  let p = 1 << 31; // x^0
  let k = 3;
  for (let n = length; n; n = Math.floor(n / 2), k++) if (n & 1) p = multModP(X2N[k & 31], p);
  return p >>> 0;
}
