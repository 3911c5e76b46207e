import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HLS through our server (清风DJ's playlists need its Referer on every request): a playlist's
 * addresses (segments, keys, nested playlists) are rewritten to our segment route, each signed
 * so the route streams exactly the addresses a playlist named, not anything on the site's hosts.
 */
export const SOURCE_SEGMENT_PATH = "/api/forntend/source-play/segment";
/** A signed segment address lasts this long: a long mix played from its playlist once. */
export const SEGMENT_LINK_MS = 6 * 60 * 60_000;
/** A playlist read whole before rewriting (they are a few KB; a 2 h mix of 10 s segments ~50 KB). */
export const MAX_PLAYLIST_BYTES = 1024 * 1024;

export interface SegmentTarget {
  source: string;
  id: string;
  url: string;
  expires: number;
}

const payload = (t: SegmentTarget) => `${t.source}\n${t.id}\n${t.url}\n${t.expires}`;

export function signSegment(secret: Buffer, target: SegmentTarget): string {
  return createHmac("sha256", secret).update(payload(target)).digest("base64url");
}

export function segmentPath(secret: Buffer, target: SegmentTarget): string {
  const q = new URLSearchParams({ source: target.source, id: target.id, u: target.url, e: String(target.expires), s: signSegment(secret, target) });
  return `${SOURCE_SEGMENT_PATH}?${q.toString()}`;
}

/** True when the signature is ours and the link has not expired. */
export function verifySegment(secret: Buffer, target: SegmentTarget, signature: string, now: number): boolean {
  if (!(target.expires > now)) return false;
  const expected = Buffer.from(signSegment(secret, target));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const isPlaylist = (url: string, contentType: string | undefined) =>
  /mpegurl/iu.test(contentType ?? "") || new URL(url).pathname.toLowerCase().endsWith(".m3u8");

/**
 * Every address in an M3U8 playlist, made absolute against the playlist's own address and
 * passed through `proxied`: URI lines and the URI="…" attributes of tags (EXT-X-KEY, EXT-X-MAP,
 * EXT-X-MEDIA, EXT-X-I-FRAME-STREAM-INF).
 */
export function rewritePlaylist(text: string, playlistUrl: string, proxied: (absolute: string) => string): string {
  const absolute = (ref: string) => new URL(ref, playlistUrl).toString();
  return text
    .split(/\r?\n/u)
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === "") return line;
      if (trimmed.startsWith("#")) return line.replace(/URI="([^"]*)"/gu, (_, ref: string) => `URI="${proxied(absolute(ref))}"`);
      return proxied(absolute(trimmed));
    })
    .join("\n");
}
