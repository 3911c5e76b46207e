import { randomBytes } from "node:crypto";
import { SEGMENT_LINK_MS, segmentPath, verifySegment, type SegmentTarget } from "./hls-playlist.js";
import type { MediaStreamer, ResolvedMedia } from "./types.js";
import { SourceError } from "./types.js";
import type { SourceAdapterEntry } from "./source-provider.js";

/** A resolved address is reused at most this long (sites' tokens last minutes to hours). */
export const RESOLVE_CACHE_MAX_MS = 5 * 60_000;
/** A token is not handed out this close to its end: the listener needs time to play it. */
export const RESOLVE_EXPIRY_MARGIN_MS = 60_000;
const RESOLVE_CACHE_ENTRIES = 2_000;

export type PlayPlan =
  /** No headers needed: the browser fetches the site's address itself. */
  | { kind: "redirect"; url: string }
  /** The site checks a Referer (172Mix): our server streams it from the source's media hosts. */
  | { kind: "stream"; media: ResolvedMedia; streamer: MediaStreamer }
  /** Unknown source, or an address that no longer resolves: the player's 媒体地址无效. */
  | { kind: "gone"; status: 404 | 410 }
  /** The site failed (down, blocked, changed layout): 502. */
  | { kind: "failed"; reason: string };

/**
 * Resolves an external item's playable address at play time (issue 11, ADR 0022): through the
 * source's adapter, kept a short while per source and id so the media element's many Range
 * requests of one play do not each reach the site.
 */
export function sourcePlayService(entries: SourceAdapterEntry[], { now = Date.now }: { now?: () => number } = {}) {
  const byCode = new Map(entries.map((e) => [e.code, e]));
  const cache = new Map<string, { media: ResolvedMedia; until: number }>();
  const key = (source: string, id: string) => `${source}\n${id}`;
  // Per process: a signed segment link is only good on the instance that wrote the playlist
  // (sticky sessions or a shared key when there are several, roadmap 9).
  const secret = randomBytes(32);

  async function resolve(entry: SourceAdapterEntry, id: string, signal: AbortSignal): Promise<ResolvedMedia> {
    const k = key(entry.code, id);
    const kept = cache.get(k);
    if (kept && kept.until > now()) return kept.media;
    cache.delete(k);
    const media = await entry.adapter.resolveMedia(id, signal);
    const until = Math.min(now() + RESOLVE_CACHE_MAX_MS, (media.expiresAt ?? Infinity) - RESOLVE_EXPIRY_MARGIN_MS);
    if (until > now()) {
      // Oldest first out: a Map keeps insertion order.
      if (cache.size >= RESOLVE_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(k, { media, until });
    }
    return media;
  }

  return {
    async plan(source: string, id: string, signal: AbortSignal): Promise<PlayPlan> {
      const entry = byCode.get(source);
      if (!entry) return { kind: "gone", status: 404 };
      let media: ResolvedMedia;
      try {
        media = await resolve(entry, id, signal);
      } catch (error) {
        if (error instanceof SourceError && error.kind === "expired") return { kind: "gone", status: 410 };
        if (error instanceof SourceError && error.kind === "not_found") return { kind: "gone", status: 404 };
        return { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
      if (Object.keys(media.headers).length === 0) return { kind: "redirect", url: media.url };
      if (!entry.media) return { kind: "failed", reason: `${source} has no media streamer` };
      return { kind: "stream", media, streamer: entry.media };
    },
    /** Our address for one address a playlist names (HLS through us). */
    segmentLink(source: string, id: string, url: string): string {
      return segmentPath(secret, { source, id, url, expires: now() + SEGMENT_LINK_MS });
    },
    verifySegment(target: SegmentTarget, signature: string): boolean {
      return verifySegment(secret, target, signature, now());
    },
    /** The site refused a kept address (its token ended early): the next request resolves again. */
    forget(source: string, id: string) {
      cache.delete(key(source, id));
    },
  };
}

export type SourcePlayService = ReturnType<typeof sourcePlayService>;
