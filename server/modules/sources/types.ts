/**
 * The one small interface every external DJ site implements (issue 11; compare MusicFree's
 * source plugins): search, a category, a chart, one item's details, and a playable address
 * resolved at play time. djuu, 172minx and vvvdj have code adapters; any other site is a
 * generic adapter configured by data (`adapters/generic.ts`).
 *
 * Adapters never reach the network themselves: they ask a `SourceFetcher` (the safe outbound
 * client: configured hosts only, no private addresses after DNS, bounded time, size and
 * redirects, per-source concurrency and rate caps).
 */

export type ItemKind = "mix" | "single";
export type ChartPeriod = "day" | "week" | "month" | "quarter";

/** One item as a site lists it: what the site wrote (`raw`) and our normalised reading. */
export interface SourceItem {
  /** The source's code (`djuu`, `172minx`, `vvvdj`, or a generic source's code). */
  source: string;
  /** The item's id on its site (text: some sites use hex). */
  sourceId: string;
  /** Absolute address of the item's page on its site (external results link there). */
  url: string;
  /** Normalised (see normalise.ts): title without site prefixes, artist split off when the site gives "歌手 - 歌名". */
  title: string;
  artist: string | null;
  cover: string | null;
  /** Seconds, when the site says. */
  duration: number | null;
  sizeBytes: number | null;
  kind: ItemKind;
  playtype: "mp3" | "mp4";
  /** Position on the chart or list it came from (1-based), when listed in order. */
  position?: number;
  /** Every field as the site wrote it (attribute values, JSON fields), for collection and repair. */
  raw: Record<string, unknown>;
}

export interface SourcePage {
  items: SourceItem[];
  /** True when the site shows a next page. */
  hasMore: boolean;
  /** The site's own total, when it states one. */
  total?: number;
}

export interface TrackNode {
  label: string;
  items?: TrackNode[];
}

export interface SourceItemDetails extends SourceItem {
  /** Tracklist where the site has one (a djlist tree). */
  tracklist: TrackNode[];
}

/** A playable address with the headers the source host needs (Referer etc.). */
export interface ResolvedMedia {
  url: string;
  headers: Record<string, string>;
  /** HLS playlists are streamed as such (the player uses hls.js). */
  format: "m4a" | "mp3" | "mp4" | "hls";
  /** When the address stops working, if the site's token says (Unix ms). */
  expiresAt?: number;
}

export interface SearchInput {
  keyword: string;
  page: number;
  type: "mp3" | "mp4";
  kind?: ItemKind;
}

/** Why a source call failed: the search names the source with this, never as "no results". */
export type SourceErrorKind =
  | "blocked" // the site refused us (e.g. a firewall's 403)
  | "timeout"
  | "network" // refused, reset, DNS
  | "http" // another non-2xx status
  | "layout" // the page no longer has the shape we read (changed layout, malformed)
  | "expired" // a media address that no longer resolves
  | "not_found"
  | "forbidden_address" // SSRF guard: a private/loopback address or an unconfigured host
  | "plugin" // a plugin failed in its sandbox (threw, ran past its CPU, memory or time)
  | "busy"; // our own queue had no time for the call (the plugin sandbox): the site was never asked

export class SourceError extends Error {
  constructor(
    readonly source: string,
    readonly kind: SourceErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "SourceError";
  }
}

export interface SourceAdapter {
  /** The source code (also `source_sites.code`). */
  readonly code: string;
  /** Shown name: DJUU, 172Mix, 清风DJ. */
  readonly name: string;
  /**
   * Whether the site can answer this query at all (a source declares what it can do): false for
   * a query the site is known to refuse whatever we do (172Mix's firewall and non-ASCII
   * keywords). Such a query is never sent and is not a failure: the search skips the source.
   * Absent: every query is served.
   */
  servesQuery?(input: SearchInput): boolean;
  search(input: SearchInput, signal?: AbortSignal): Promise<SourcePage>;
  /** A category's page; `category` is the site's own category key (cid, slug, c{N}/{sub}). */
  listCategory(category: string, page: number, signal?: AbortSignal): Promise<SourcePage>;
  /** A chart; sites without a period or kind answer their nearest chart or an empty page. */
  listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal): Promise<SourcePage>;
  details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails>;
  /** The address to play now (tokens expire: never stored as permanent). */
  resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia>;
  /** What a collection walks on this source, when the source itself knows (a plugin's top lists); else the collector's plans. */
  collectPlan?(signal?: AbortSignal): Promise<import("../../db/schema/collect.js").CollectUnit[]>;
}

/** What an adapter is given: the outbound client bound to its source, and its base URL. */
export interface AdapterContext {
  fetcher: SourceFetcher;
  /** e.g. https://www.djuu.com (tests: the fixture server's address). */
  baseUrl: string;
}

export interface FetchRequest {
  url: string;
  method?: "GET" | "POST" | "HEAD" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Redirects to follow (at most the client's own cap); a redirect past them is the answer. */
  maxRedirects?: number;
  /** The bytes only: no text decoding. */
  raw?: boolean;
  /** Text encoding of the answer when the site does not say (`gbk` for old sites); default from Content-Type, else utf-8. */
  encoding?: string;
  signal?: AbortSignal;
}

export interface FetchResponse {
  status: number;
  /** The final address after redirects. */
  url: string;
  headers: Record<string, string>;
  /** The body decoded to text ("" when `raw` was asked). */
  text: string;
  bytes: Buffer;
}

/**
 * The outbound HTTP client of one source (`server/modules/sources/fetch/`). It throws a
 * SourceError (`timeout`, `network`, `forbidden_address`, `http` for bodies over the cap) and
 * returns any status: the adapter decides what a 403 or 404 means on its site.
 */
export interface SourceFetcher {
  fetch(request: FetchRequest): Promise<FetchResponse>;
}

/** An upstream media answer being streamed (the media proxy of the play route). */
export interface MediaStream {
  status: number;
  /** The final address after redirects. */
  url: string;
  headers: import("node:http").IncomingHttpHeaders;
  body: import("node:stream").Readable;
}

/**
 * Streams a resolved media address from the source's media hosts only, under the same address
 * rules as the page fetcher (`fetch/stream.ts`). Aborting `signal` destroys the upstream.
 */
export interface MediaStreamer {
  open(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<MediaStream>;
}
