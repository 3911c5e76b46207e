import { fail } from "@contracts/envelope";
import { playerMessages } from "@contracts/player-texts";
import { serverMessages } from "@contracts/messages";
import { sourcePlayMessages, sourcePlayQuerySchema, sourceSegmentQuerySchema } from "@contracts/source-play";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { sendErrorAnswer } from "../../http/encode-answer.js";
import { rateLimitConfig } from "../../http/rate-limits.js";
import type { AppServices } from "../../services.js";
import { isPlaylist, MAX_PLAYLIST_BYTES, rewritePlaylist, SOURCE_SEGMENT_PATH } from "./hls-playlist.js";
import type { PlayPlan } from "./play-service.js";
import { SOURCE_PLAY_PATH } from "./source-provider.js";
import type { MediaStream, MediaStreamer, ResolvedMedia } from "./types.js";

const CONTENT_TYPES: Record<ResolvedMedia["format"], string> = {
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
  hls: "application/vnd.apple.mpegurl",
};
/** Upstream headers a media element needs to seek; nothing else of the site's answer is passed on. */
const PASSED_HEADERS = ["content-length", "content-range", "accept-ranges", "last-modified", "etag"] as const;

/**
 * Whether an upstream answer is a page rather than media: HTML, JSON, XML, scripts or other text
 * (a site's error page answered 200). A playlist may come as text/plain at an .m3u8 address.
 */
function isPageType(type: string | undefined, url: string): boolean {
  const essence = (type ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence === "text/plain" && isPlaylist(url, undefined)) return false;
  return /^text\/|^application\/(?:json|xml|xhtml\+xml|javascript|problem\+json)$|\+(?:json|xml)$/u.test(essence);
}

function sendEnvelope(reply: FastifyReply, status: number, message: string): FastifyReply {
  // A resolved address is never cached by the browser: tokens expire.
  return sendErrorAnswer(reply.header("cache-control", "no-store"), status, fail(message));
}

interface StreamJob {
  /** The address to fetch: the resolved media, or one its playlist named. */
  url: string;
  media: ResolvedMedia;
  streamer: MediaStreamer;
  /** Our address for an address a playlist names. */
  proxied: (absolute: string) => string;
  /** The site refused the kept address. */
  onRefused: () => void;
}

async function readBounded(body: MediaStream["body"]): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PLAYLIST_BYTES) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function stream(request: FastifyRequest, reply: FastifyReply, { url, media, streamer, proxied, onRefused }: StreamJob) {
  const controller = new AbortController();
  let body: MediaStream["body"] | undefined;
  // The browser went away (seeked, closed the tab) mid-answer: stop reading from the site.
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished && !(body?.readableEnded ?? false)) controller.abort();
  });
  const headers: Record<string, string> = { ...media.headers };
  // A playlist is read whole and rewritten: a media element's `Range: bytes=0-` would get a 206
  // from the site, which we cannot rewrite. Media and segments pass the browser's Range on.
  if (!isPlaylist(url, undefined)) {
    for (const name of ["range", "if-range"] as const) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
  }
  const upstream = await streamer.open(url, headers, controller.signal);
  body = upstream.body;
  // Aborting destroys the body with an AbortError: expected, once the browser has gone.
  upstream.body.on("error", (error) => {
    if (!controller.signal.aborted) request.log.warn({ err: error, url: upstream.url }, "source media stream broke");
  });
  if (upstream.status === 416) {
    upstream.body.resume();
    return sendEnvelope(reply, 416, "请求的范围无效");
  }
  if (upstream.status !== 200 && upstream.status !== 206) {
    upstream.body.resume();
    // The site refused the address we kept (token ended early): resolve again next time.
    if (upstream.status === 403 || upstream.status === 404 || upstream.status === 410) {
      onRefused();
      return sendEnvelope(reply, 404, playerMessages.badUrl);
    }
    return sendEnvelope(reply, 502, sourcePlayMessages.sourceFailed);
  }
  const type = upstream.headers["content-type"];
  if (isPageType(type, upstream.url)) {
    // An error page answered 200 (a login wall, "file not found" in HTML): not media. The kept
    // address is dropped, the next press resolves again.
    upstream.body.resume();
    request.log.warn({ url: upstream.url, contentType: type }, "source media answered a page, not media");
    onRefused();
    return sendEnvelope(reply, 404, playerMessages.badUrl);
  }
  reply.code(upstream.status).header("cache-control", "no-store").header("x-content-type-options", "nosniff");
  if (upstream.status === 200 && isPlaylist(upstream.url, type)) {
    // Its segments need the site's headers too: every address it names comes through us.
    const text = await readBounded(upstream.body);
    if (text === null) return sendEnvelope(reply, 502, sourcePlayMessages.sourceFailed);
    return reply.type(CONTENT_TYPES.hls).send(rewritePlaylist(text, upstream.url, proxied));
  }
  reply.header("content-type", type && /^(audio|video)\/|mpegurl|octet-stream/iu.test(type) ? type : CONTENT_TYPES[media.format]);
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers[name];
    if (typeof value === "string") reply.header(name, value);
  }
  if (!upstream.headers["accept-ranges"]) reply.header("accept-ranges", upstream.status === 206 ? "bytes" : "none");
  return reply.send(upstream.body);
}

/**
 * Plays an external search result (issue 11, ADR 0022): the item's address is resolved now
 * through its source's adapter; an address the browser can fetch itself is a 302 to it, one
 * that needs the site's Referer is streamed through us (Range passed on) from the source's
 * media hosts only.
 */
export const sourcePlayRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    SOURCE_PLAY_PATH,
    {
      // Media bytes are compressed already; Range means exactly the site's bytes.
      compress: false,
      exposeHeadRoute: false,
      config: { access: "public", rateLimit: rateLimitConfig("sourcePlay") },
      schema: {
        tags: ["frontend"],
        summary: "播放外部来源的结果 (302 到来源地址, 或经本站转发并支持 Range); 失效为 404/410 媒体地址无效, 来源故障为 502",
        querystring: sourcePlayQuerySchema,
      },
    },
    async (request, reply) => {
      const { source, id } = request.query;
      const plan = await services.sourcePlay.plan(source, id, AbortSignal.timeout(10_000));
      return answer(request, reply, plan, { source, id, url: plan.kind === "stream" ? plan.media.url : "" });
    },
  );

  api.get(
    SOURCE_SEGMENT_PATH,
    {
      compress: false,
      exposeHeadRoute: false,
      // A playlist's segments, one request every few seconds of listening.
      config: { access: "public", rateLimit: rateLimitConfig("sourceSegment") },
      schema: {
        tags: ["frontend"],
        summary: "外部来源 HLS 播放列表中的分段 (由本站改写并签名的地址)",
        querystring: sourceSegmentQuerySchema,
      },
    },
    async (request, reply) => {
      const { source, id, u: url, e: expires, s: signature } = request.query;
      if (!services.sourcePlay.verifySegment({ source, id, url, expires }, signature)) {
        // A link past its time is a stale playlist (媒体地址无效); a wrong signature is not ours.
        return expires <= services.clock().getTime() ? sendEnvelope(reply, 410, playerMessages.badUrl) : sendEnvelope(reply, 403, serverMessages.forbidden);
      }
      const plan = await services.sourcePlay.plan(source, id, AbortSignal.timeout(10_000));
      return answer(request, reply, plan.kind === "redirect" ? { kind: "redirect", url } : plan, { source, id, url });
    },
  );

  async function answer(request: FastifyRequest, reply: FastifyReply, plan: PlayPlan, { source, id, url }: { source: string; id: string; url: string }) {
    switch (plan.kind) {
      case "gone":
        return sendEnvelope(reply, plan.status, playerMessages.badUrl);
      case "unavailable":
        // The breaker is open: the site failed repeatedly and is not asked until its probe.
        return sendEnvelope(reply.header("retry-after", "30"), 503, sourcePlayMessages.sourceFailed);
      case "failed":
        request.log.warn({ source, id, reason: plan.reason }, "source play failed");
        return sendEnvelope(reply, 502, sourcePlayMessages.sourceFailed);
      case "redirect":
        return reply.header("cache-control", "no-store").redirect(plan.url, 302);
      case "stream":
        try {
          return await stream(request, reply, {
            url,
            media: plan.media,
            streamer: plan.streamer,
            proxied: (absolute) => services.sourcePlay.segmentLink(source, id, absolute),
            onRefused: () => services.sourcePlay.forget(source, id),
          });
        } catch (error) {
          request.log.warn({ source, id, err: error }, "source media stream failed");
          if (reply.sent || reply.raw.headersSent) return reply;
          return sendEnvelope(reply, 502, sourcePlayMessages.sourceFailed);
        }
    }
  }
};
