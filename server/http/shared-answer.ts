import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { ownBytes, ownText } from "../lib/own-bytes.js";
import { encodeAnswer, JSON_TYPE } from "./encode-answer.js";

export type Encoding = "br" | "gzip";

/** Below this size compressing costs more than it saves (the same threshold as app.ts). */
const COMPRESS_FROM_BYTES = 1024;
const BROTLI_Q4_FROM_BYTES = 1024 * 1024;

/**
 * One answer sent to many requests (the home data, a category page, a sitemap): its bytes, an ETag,
 * and each compressed form made once, on first need. Compressing a 50-125 KB answer per
 * request was most of the cost of serving it to browsers, which always ask for br or gzip.
 * Once compressed, the plain bytes are let go (a kept answer then costs ~1/6 of its size) and
 * made again from a compressed form for the rare client that takes no encoding.
 *
 * A JSON answer is made by `SharedAnswer.json(schema, value)` only: its bytes are what the route
 * serializer would send for that value (`encodeAnswer`), and `schema` is the one its route
 * declares (the answer check compares them, ADR 0057). Text (a page, a sitemap) by `text`.
 */
export class SharedAnswer {
  readonly etag: string;
  /** Uncompressed size in bytes. */
  readonly size: number;
  private plain: Buffer | undefined;
  private readonly encoded = new Map<Encoding, Buffer>();

  /** A JSON answer: `value` encoded through `schema`, the response schema of the route that sends it. */
  static json(schema: z.ZodType, value: unknown): SharedAnswer {
    return new SharedAnswer(encodeAnswer(schema, value), JSON_TYPE, schema);
  }

  /** A text answer that is not JSON (HTML, XML) of content type `type`. */
  static text(text: string, type: string): SharedAnswer {
    return new SharedAnswer(text, type);
  }

  private constructor(
    text: string,
    /** Its content type. */
    readonly type: string,
    /** The schema a JSON answer was encoded through. */
    readonly schema?: z.ZodType,
  ) {
    this.plain = ownText(text);
    this.size = this.plain.length;
    this.etag = `"${createHash("sha1").update(this.plain).digest("base64url")}"`;
  }

  /** The bytes this answer holds now (plain and/or compressed forms): what a cache counts. */
  get bytesHeld(): number {
    let bytes = this.plain?.length ?? 0;
    for (const encoded of this.encoded.values()) bytes += encoded.length;
    return bytes;
  }

  get body(): Buffer {
    if (this.plain) return this.plain;
    const [encoding, bytes] = this.encoded.entries().next().value as [Encoding, Buffer];
    return encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes);
  }

  encodedAs(encoding: Encoding): Buffer {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      const body = this.body;
      // Brotli at quality 5: within a few per cent of 11 on JSON, at a small part of its cost.
      // Past a megabyte (a 5 MB sitemap) 5 took 290 ms and 4 47 ms, for as small an answer.
      const quality = body.length > BROTLI_Q4_FROM_BYTES ? 4 : 5;
      bytes = ownBytes(
        encoding === "br"
          ? brotliCompressSync(body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
            })
          : gzipSync(body, { level: 6 }),
      );
      this.encoded.set(encoding, bytes);
      this.plain = undefined;
    }
    return bytes;
  }
}

/** The encodings a client takes, lower-cased, without those it refuses with `;q=0`. */
export function acceptedEncodings(acceptEncoding: string | undefined): Set<string> {
  return new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part && !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(";")[0].trim()),
  );
}

/** br when the client takes it, else gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return null;
}

/** Sends a shared answer: 304 when the client has it, otherwise its best-compressed bytes. */
export function sendShared(request: FastifyRequest, reply: FastifyReply, answer: SharedAnswer): FastifyReply {
  sentAnswers.set(reply, answer);
  reply.type(answer.type).header("vary", "accept-encoding").header("etag", answer.etag);
  if (request.headers["if-none-match"] === answer.etag) return reply.code(304).send();
  const encoding = answer.size >= COMPRESS_FROM_BYTES ? pickEncoding(request.headers["accept-encoding"]) : null;
  if (!encoding) return reply.send(answer.body);
  return reply.header("content-encoding", encoding).send(answer.encodedAs(encoding));
}

const sentAnswers = new WeakMap<FastifyReply, SharedAnswer>();

/**
 * The kept answer a reply is sending, if it is sending one, forgotten once asked (the answer
 * check compares its schema, ADR 0057; an error answer sent after it is not that answer).
 */
export function takeSharedAnswer(reply: FastifyReply): SharedAnswer | undefined {
  const answer = sentAnswers.get(reply);
  sentAnswers.delete(reply);
  return answer;
}

const answersOf = new WeakMap<object, SharedAnswer>();

/**
 * The shared JSON answer made from a cached object (one per cache fill of the service that owns
 * it): `answer(value)` encoded through `schema`.
 */
export function answerFor<T extends object>(value: T, schema: z.ZodType, answer: (value: T) => unknown): SharedAnswer {
  let kept = answersOf.get(value);
  if (!kept) {
    kept = SharedAnswer.json(schema, answer(value));
    answersOf.set(value, kept);
  }
  return kept;
}
