import { DEFAULT_ARTIST, DEFAULT_COVER } from "@contracts/player-texts";
import type { CatalogueItem } from "@contracts/catalogue-item";
import type { DjListNode, MusicInfo } from "@contracts/suite";
import { HLS_MIME_TYPE, isHlsAddress } from "@contracts/play-format";

export interface Track {
  label: string;
  /** Seconds into the item's media. */
  start: number;
}

/** One playlist entry (spec section 2: id, name, artist, cover, url, mimeType). */
export interface PlayerItem {
  id: string | number;
  name: string;
  artist: string;
  cover: string;
  url: string;
  mimeType: string;
  /** Our detail page, when the item is from the catalogue. */
  page?: string;
  /** Timed tracklist (from the suite's djlist), in play order. */
  tracks?: Track[];
  /**
   * The media's length in seconds when known before it loads (the suite's recorded duration,
   * or what the media said when it last played): a restored player shows it until the media
   * reports its own.
   */
  duration?: number;
}

export const HLS_MIME = HLS_MIME_TYPE;

/**
 * mp4 items play as video; `.m3u8` urls and our play route's HLS-hinted addresses (collected
 * items of HLS-only sites) stream (HLS); everything else is audio.
 */
export function mimeTypeOf(url: string, playtype: "mp3" | "mp4"): string {
  if (isHlsAddress(url)) return HLS_MIME;
  if (playtype === "mp4") return "video/mp4";
  if (/\.m4a(\?|#|$)/i.test(url)) return "audio/mp4";
  return "audio/mpeg";
}

export const isVideo = (item: Pick<PlayerItem, "mimeType"> | undefined) => !!item?.mimeType.startsWith("video/");
export const isHls = (item: Pick<PlayerItem, "url" | "mimeType">) => item.mimeType === HLS_MIME || isHlsAddress(item.url);

/** Same entry = same id and same media. */
export const sameItem = (a: PlayerItem, b: PlayerItem) => String(a.id) === String(b.id) && a.url === b.url;

function withDefaults(item: PlayerItem): PlayerItem {
  return { ...item, artist: item.artist || DEFAULT_ARTIST, cover: item.cover || DEFAULT_COVER };
}

/**
 * A list item (search, category, charts) as a playlist entry. An external hit (text id
 * "{source}:{id}") plays through our resolve route, whose address says nothing of the format:
 * its `mimeType` does (HLS for sites that stream playlists).
 */
export function fromCatalogueItem(item: CatalogueItem): PlayerItem {
  return withDefaults({
    id: item.id,
    name: item.name,
    artist: item.artist,
    cover: item.cover,
    url: item.palyurl,
    mimeType: item.mimeType || mimeTypeOf(item.palyurl, item.playtype),
    page: item.url,
  });
}

/** The suite detail page's item, with its timed tracklist when the djlist has start times. */
export function fromMusicInfo(info: MusicInfo): PlayerItem {
  const tracks = timedTracks(info.djlist);
  return withDefaults({
    id: info.id,
    name: info.title,
    artist: info.artist,
    cover: info.image,
    url: info.palyurl,
    mimeType: mimeTypeOf(info.palyurl, info.playtype),
    page: info.url,
    ...(tracks.length ? { tracks } : {}),
    ...(info.duration && info.duration > 0 ? { duration: info.duration } : {}),
  });
}

/** The length to show for the current entry: the media's once known, else the entry's own, else 0 (unknown). */
export function knownDuration(mediaDuration: number, item: Pick<PlayerItem, "duration"> | undefined): number {
  if (Number.isFinite(mediaDuration) && mediaDuration > 0) return mediaDuration;
  const own = item?.duration;
  return typeof own === "number" && Number.isFinite(own) && own > 0 ? own : 0;
}

/** The leaves that carry a start time, in the order they play. */
export function timedTracks(nodes: readonly DjListNode[]): Track[] {
  const out: Track[] = [];
  const walk = (list: readonly DjListNode[]) => {
    for (const n of list) {
      if (n.items) walk(n.items);
      else if (typeof n.start === "number") out.push({ label: n.label, start: n.start });
    }
  };
  walk(nodes);
  return out.sort((a, b) => a.start - b.start);
}

/** Index of the track playing at `seconds` (-1 before the first). */
export function trackAt(tracks: readonly Track[] | undefined, seconds: number): number {
  if (!tracks) return -1;
  let found = -1;
  for (let i = 0; i < tracks.length && tracks[i].start <= seconds + 0.25; i++) found = i;
  return found;
}
