import type { FastifyReply, FastifyRequest } from "fastify";
import { ownText } from "../lib/own-bytes.js";
import { GzipTemplate } from "./gzip-template.js";
import { acceptedEncodings } from "./shared-answer.js";

/**
 * A JSON answer whose start is the same for many requests and whose short end is not (a
 * suite's data, then its view count and the time). The start is compressed once; each request
 * only appends its end to the gzip stream (a GzipTemplate with one hole at the end), so it costs
 * no compression and no serialization: ~20 bytes of framing instead of ~40-50 µs of compression
 * and ~30 µs of schema-checked serialization.
 */
export class SplicedAnswer {
  private readonly template: GzipTemplate;
  private readonly start: Buffer;

  /** `start`: JSON text up to where the per-request end goes. */
  constructor(start: string) {
    this.start = ownText(start);
    this.template = new GzipTemplate([start, ""]);
  }

  /** The whole JSON, uncompressed. */
  plain(end: string): Buffer {
    return Buffer.concat([this.start, Buffer.from(end)]);
  }

  /** The whole JSON as one gzip stream. */
  gzip(end: string): Buffer {
    return this.template.gzip([end]);
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
