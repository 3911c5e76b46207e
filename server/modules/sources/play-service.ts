import { randomBytes } from "node:crypto";
import type { AppDatabase } from "../../db/types.js";
import { loadAppSecret } from "../../db/app-secret.js";
import { CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import type { SourceDirectory } from "./directory.js";
import type { CallFailure, HealthBoard } from "./health.js";
import { SEGMENT_LINK_MS, segmentPath, verifySegment, type SegmentTarget } from "./hls-playlist.js";
import type { MediaStreamer, ResolvedMedia, SourceAdapter } from "./types.js";
import { SourceError } from "./types.js";

/** A resolved address is reused at most this long (sites' tokens last minutes to hours). */
export const RESOLVE_CACHE_MAX_MS = 5 * 60_000;
/** A token is not handed out this close to its end: the listener needs time to play it. */
export const RESOLVE_EXPIRY_MARGIN_MS = 60_000;
const RESOLVE_CACHE_ENTRIES = 2_000;
/** Where the key signing playlist segment links is kept (app_settings): one per database. */
export const SEGMENT_SECRET_KEY = "source_segment_secret";

export type PlayPlan =
  /** No headers needed: the browser fetches the site's address itself. */
  | { kind: "redirect"; url: string }
  /** The site checks a Referer (172Mix): our server streams it from the source's media hosts. */
  | { kind: "stream"; media: ResolvedMedia; streamer: MediaStreamer }
  /** Unknown source, or an address that no longer resolves: the player's 媒体地址无效. */
  | { kind: "gone"; status: 404 | 410 }
  /** The source's circuit breaker is open: answered at once, the site is not asked. */
  | { kind: "unavailable" }
  /** The site failed (down, blocked, changed layout): 502. */
  | { kind: "failed"; reason: string };

export interface SourcePlayOptions {
  now?: () => number;
  /** The sources' health: resolutions count like searches, and an open breaker is not waited on. */
  health?: Pick<HealthBoard, "track">;
  /** Where the segment signing key lives (`load()`); without it a key per process. */
  db?: AppDatabase;
  /** The app's registry (the resolved addresses' cache is listed with the others); else one of its own. */
  caches?: CacheRegistry;
}

function describeFailure(error: unknown, signal: AbortSignal): CallFailure {
  if (error instanceof SourceError) return { kind: error.kind, message: error.message };
  if (signal.aborted) return { kind: "timeout", message: "play resolve timed out" };
  return { kind: "unknown", message: error instanceof Error ? error.message : String(error) };
}

/**
 * Resolves an external item's playable address at play time (issue 11, ADR 0022): through the
 * source's adapter as the directory has it now, kept a short while per source and id so the
 * media element's many Range requests of one play do not each reach the site. A kept address
 * is dropped when the source's adapter has changed since (its config was repaired).
 */
export function sourcePlayService(directory: SourceDirectory, { now = Date.now, health, db, caches = new CacheRegistry({ now }) }: SourcePlayOptions = {}) {
  // Each address kept until it expires (`until`); a site's own expiry may be sooner than the cap.
  // Loads are not shared: each runs under its request's abort signal.
  const cache = caches.create<{ media: ResolvedMedia; until: number; adapter: SourceAdapter }>({
    name: "play-addresses",
    maxEntries: RESOLVE_CACHE_ENTRIES,
    maxBytes: RESOLVE_CACHE_ENTRIES * 2048,
    sizeOf: ({ media }) => 256 + jsonBytes(media),
    freshFor: ({ until }) => until - now(),
    tagsOf: (_kept, k) => [tags.source(k.slice(0, k.indexOf("\n")))],
  });
  const fresh = (k: string, adapter: SourceAdapter) => {
    const kept = cache.peek(k);
    return kept !== undefined && kept.adapter === adapter && kept.until > now() ? kept : undefined;
  };
  const key = (source: string, id: string) => `${source}\n${id}`;
  // Shared by the instances of one database once loaded (ADR 0026): a playlist written by one
  // plays through any of them.
  let secret: Buffer | undefined;

  async function resolve(adapter: SourceAdapter, source: string, id: string, signal: AbortSignal): Promise<ResolvedMedia> {
    const k = key(source, id);
    const kept = fresh(k, adapter);
    if (kept) return kept.media;
    const media = await adapter.resolveMedia(id, signal);
    const until = Math.min(now() + RESOLVE_CACHE_MAX_MS, (media.expiresAt ?? Infinity) - RESOLVE_EXPIRY_MARGIN_MS);
    cache.set(k, { media, until, adapter });
    return media;
  }

  function signingKey(): Buffer {
    if (!secret) throw new Error("segment signing key not loaded: call services.sourcePlay.load() at start-up");
    return secret;
  }

  return {
    /** Reads (or makes) the segment signing key of the database. */
    async load(): Promise<void> {
      if (db) secret = await loadAppSecret(db, SEGMENT_SECRET_KEY);
      else secret ??= randomBytes(32);
    },

    async plan(source: string, id: string, signal: AbortSignal): Promise<PlayPlan> {
      const entry = directory.get(source);
      if (!entry) return { kind: "gone", status: 404 };
      const tracked = fresh(key(source, id), entry.adapter) ? undefined : health?.track(entry.code, entry.name);
      if (tracked && !tracked.admit()) return { kind: "unavailable" };
      const started = performance.now();
      let media: ResolvedMedia;
      try {
        media = await resolve(entry.adapter, source, id, signal);
        tracked?.succeeded(performance.now() - started);
      } catch (error) {
        const answered = error instanceof SourceError && (error.kind === "expired" || error.kind === "not_found");
        // The site answered "no such address": it is up. Anything else counts against it.
        if (answered) tracked?.succeeded(performance.now() - started);
        else if (error instanceof SourceError && error.kind === "busy") tracked?.notAsked();
        else tracked?.failed(performance.now() - started, describeFailure(error, signal));
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
      return segmentPath(signingKey(), { source, id, url, expires: now() + SEGMENT_LINK_MS });
    },
    verifySegment(target: SegmentTarget, signature: string): boolean {
      return verifySegment(signingKey(), target, signature, now());
    },
    /** The site refused a kept address (its token ended early): the next request resolves again. */
    forget(source: string, id: string) {
      cache.delete(key(source, id));
    },
  };
}

export type SourcePlayService = ReturnType<typeof sourcePlayService>;
