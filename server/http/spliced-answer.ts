import { constants, crc32, deflateRawSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { acceptedEncodings } from "./shared-answer.js";

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A stored deflate block holds at most this many bytes. */
const STORED_MAX = 0xffff;

/**
 * A JSON answer whose start is the same for many requests and whose short end is not (a
 * suite's data, then its view count and the time). The start is compressed once; each request
 * only appends its end to the gzip stream, so it costs no compression and no serialization.
 *
 * How: the start is deflated and ended with a full flush, which leaves the stream byte-aligned
 * and refers nothing back across it, so a final "stored" (uncompressed) block with the end can
 * follow; the gzip trailer's CRC-32 continues from the start's. (RFC 1951 3.2.4, RFC 1952.)
 * Per request that is ~20 bytes of framing instead of ~40-50 µs of compression and ~30 µs of
 * schema-checked serialization.
 */
export class SplicedAnswer {
  private readonly start: Buffer;
  private readonly startDeflated: Buffer;
  private readonly startCrc: number;

  /** `start`: JSON text up to where the per-request end goes. */
  constructor(start: string) {
    this.start = Buffer.from(start);
    this.startDeflated = deflateRawSync(this.start, { level: 6, finishFlush: constants.Z_FULL_FLUSH });
    this.startCrc = crc32(this.start);
  }

  /** The whole JSON, uncompressed. */
  plain(end: string): Buffer {
    return Buffer.concat([this.start, Buffer.from(end)]);
  }

  /** The whole JSON as one gzip stream. */
  gzip(end: string): Buffer {
    const tail = Buffer.from(end);
    const blocks: Buffer[] = [];
    for (let at = 0; at < tail.length || at === 0; at += STORED_MAX) {
      const part = tail.subarray(at, at + STORED_MAX);
      const final = at + STORED_MAX >= tail.length;
      const head = Buffer.alloc(5);
      head[0] = final ? 1 : 0; // BFINAL, BTYPE 00 (stored)
      head.writeUInt16LE(part.length, 1);
      head.writeUInt16LE(~part.length & 0xffff, 3);
      blocks.push(head, part);
    }
    const trailer = Buffer.alloc(8);
    // (zlib's crc32 of nothing is 0, not the value it was to continue from.)
    trailer.writeUInt32LE(tail.length ? crc32(tail, this.startCrc) : this.startCrc, 0);
    trailer.writeUInt32LE((this.start.length + tail.length) % 2 ** 32, 4);
    return Buffer.concat([GZIP_HEADER, this.startDeflated, ...blocks, trailer]);
  }
}

/** Sends start + `end`: gzip when the client takes it (every browser does), else plain. */
export function sendSpliced(request: FastifyRequest, reply: FastifyReply, answer: SplicedAnswer, end: string): FastifyReply {
  reply.type("application/json; charset=utf-8").header("vary", "accept-encoding");
  // gzip, not br, is the one format a per-request end can be appended to without compressing.
  const accepted = acceptedEncodings(request.headers["accept-encoding"]);
  if (!accepted.has("gzip") && !accepted.has("*")) return reply.send(answer.plain(end));
  return reply.header("content-encoding", "gzip").send(answer.gzip(end));
}
