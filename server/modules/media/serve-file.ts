/**
 * Sends one file with HTTP Range, validators and conditional requests. Media elements seek in
 * long mixes with open-ended ranges (bytes=N-), so a seek costs one small request, never a
 * full download.
 */
import { open } from "node:fs/promises";
import { basename } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendMediaError } from "./media-error.js";
import { contentPolicy } from "./mime.js";
import { etagMatches, parseRange } from "./range.js";

export interface ServeOptions {
  /** Cache-Control for everything but playlists (HLS playlists are always revalidated). */
  cacheControl: string;
}

/** A response served from our origin must never act as a document that runs script. */
const SANDBOX_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

function httpDateSeconds(value: string | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

export async function serveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  opts: ServeOptions,
): Promise<FastifyReply> {
  const handle = await open(file, "r");
  let streaming = false;
  try {
    const st = await handle.stat();
    if (!st.isFile()) return sendMediaError(reply, 404);
    const size = st.size;
    const mtimeSec = Math.floor(st.mtimeMs / 1000);
    const etag = `"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const lastModified = new Date(mtimeSec * 1000).toUTCString();
    const policy = contentPolicy(file);
    const h = request.headers;

    reply
      .header("accept-ranges", "bytes")
      .header("etag", etag)
      .header("last-modified", lastModified)
      .header("cache-control", policy.type === "application/vnd.apple.mpegurl" ? "no-cache" : opts.cacheControl)
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", SANDBOX_CSP)
      .header("content-type", policy.type);
    if (!policy.inline) {
      const name = basename(file);
      reply.header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    }

    // Preconditions in RFC 9110 §13.2.2 order.
    const ifMatch = h["if-match"];
    if (ifMatch ? !etagMatches(ifMatch, etag, false) : (httpDateSeconds(h["if-unmodified-since"]) ?? Infinity) < mtimeSec) {
      return sendMediaError(reply, 412);
    }
    const ifNoneMatch = h["if-none-match"];
    const notModified = ifNoneMatch
      ? etagMatches(ifNoneMatch, etag, true)
      : (httpDateSeconds(h["if-modified-since"]) ?? -Infinity) >= mtimeSec;
    if (notModified) return reply.code(304).send();

    let range = request.method === "GET" ? parseRange(h.range, size) : ({ kind: "none" } as const);
    const ifRange = h["if-range"];
    if (range.kind !== "none" && typeof ifRange === "string") {
      // A Range is only honoured for the representation the client already has part of.
      const same = ifRange.startsWith('"') || ifRange.startsWith("W/") ? ifRange === etag : httpDateSeconds(ifRange) === mtimeSec;
      if (!same) range = { kind: "none" };
    }
    if (range.kind === "unsatisfiable") {
      return sendMediaError(reply.header("content-range", `bytes */${size}`), 416);
    }
    const start = range.kind === "range" ? range.start : 0;
    const end = range.kind === "range" ? range.end : size - 1;
    if (range.kind === "range") reply.code(206).header("content-range", `bytes ${start}-${end}/${size}`);
    reply.header("content-length", String(end - start + 1));
    if (request.method === "HEAD" || size === 0) return reply.send();
    streaming = true;
    return reply.send(handle.createReadStream({ start, end }));
  } finally {
    // The read stream closes the handle itself when it ends or is destroyed.
    if (!streaming) await handle.close();
  }
}
