import { z } from "zod";
import { classifyKind, parseDuration, splitArtist } from "../normalise.js";
import { SourceError, type SourceFetcher, type SourceItem, type SourcePage } from "../types.js";
import { pageText } from "./site-answer.js";

/**
 * djuu's app API (SOURCES.md, djuu: base https://android.djuu.com/app/v1, no token). It is asked
 * the way its app asks: `Accept: application/json` and an Android browser User-Agent ending in
 * the app's package name. Every answer is the envelope `{code, msg, time, data}`; any code but 1
 * is an error. Some answers arrive JSON-encoded twice (a JSON string holding the JSON): unwrapped
 * up to two levels.
 */

/** An Android WebView's User-Agent with the app's package name, as djuu's app sends it. */
export const DJUU_APP_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; V2302A Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/158.0.0.0 Mobile Safari/537.36 com.djuu.player";

export const DJUU_API_HEADERS: Readonly<Record<string, string>> = { "User-Agent": DJUU_APP_USER_AGENT, Accept: "application/json" };

/** Songs asked per search page (`row`). */
export const DJUU_SEARCH_ROWS = 20;

const envelope = z.looseObject({ code: z.coerce.number(), msg: z.string().nullish(), data: z.unknown() });
const idValue = z.union([z.string(), z.number()]).transform(String);
export const apiSong = z.looseObject({
  id: idValue,
  title: z.string().min(1),
  coverImgShow: z.string().nullish(),
  duration: z.union([z.number(), z.string()]).nullish(),
  size: z.union([z.number(), z.string()]).nullish(),
  hits_num: z.union([z.number(), z.string()]).nullish(),
  create_time: z.union([z.number(), z.string()]).nullish(),
});
export const songList = z.looseObject({ list: z.array(apiSong), total: z.coerce.number().nullish() });
export const listenAnswer = z.looseObject({ listenurl: z.string().nullish(), vipListenUrl: z.string().nullish() });

/** The JSON of an answer, unwrapping one that was encoded twice; undefined when it is not JSON. */
export function readApiJson(text: string): unknown {
  let value: unknown = text;
  for (let level = 0; level < 2 && typeof value === "string"; level += 1) {
    try {
      value = JSON.parse(value.replace(/^\uFEFF/u, "").trim()) as unknown;
    } catch {
      return undefined;
    }
  }
  return value;
}

export interface DjuuApi {
  /** The envelope's `data`; a code other than 1 is `http`, an answer of another shape `layout`. */
  call(path: string, what: string, signal?: AbortSignal): Promise<unknown>;
}

export function djuuApi(fetcher: SourceFetcher, base: string, source: string): DjuuApi {
  return {
    async call(path, what, signal) {
      const answer = await fetcher.fetch({ url: `${base}${path}`, headers: { ...DJUU_API_HEADERS }, signal });
      const parsed = envelope.safeParse(readApiJson(pageText(source, answer, what)));
      if (!parsed.success) throw new SourceError(source, "layout", `${what}: not the app API's envelope`);
      if (parsed.data.code !== 1) throw new SourceError(source, "http", `${what}: code ${parsed.data.code} ${parsed.data.msg ?? ""}`.trim());
      return parsed.data.data;
    },
  };
}

/** One song of the API as our item; `raw` is the object as the site wrote it (ids stay numbers). */
export function fromApiSong(source: string, song: z.infer<typeof apiSong>, raw: Record<string, unknown>, url: string, position?: number): SourceItem {
  const { artist, title } = splitArtist(song.title);
  const duration = parseDuration(song.duration ?? null);
  const sizeBytes = song.size === null || song.size === undefined || song.size === "" ? null : Number(song.size) || null;
  return {
    source,
    sourceId: song.id,
    url,
    title,
    artist,
    cover: song.coverImgShow || null,
    duration,
    sizeBytes,
    kind: classifyKind({ title: song.title, duration, sizeBytes }),
    playtype: "mp3",
    ...(position === undefined ? {} : { position }),
    raw,
  };
}

/** A list answer (`{list, total}`) as a page; `page` and `rows` say whether a next page exists when the site states a total. */
export function apiListPage(source: string, written: unknown, playPage: (id: string) => string, what: string, paging?: { page: number; rows: number }): SourcePage {
  const data = songList.safeParse(written);
  if (!data.success) throw new SourceError(source, "layout", `${what}: the list is not in the known shape`);
  const rawList = (written as { list: Record<string, unknown>[] }).list;
  const items = data.data.list.map((song, i) => fromApiSong(source, song, rawList[i]!, playPage(song.id), i + 1));
  const total = data.data.total ?? undefined;
  const hasMore = paging === undefined ? false : total !== undefined ? paging.page * paging.rows < total : items.length >= paging.rows;
  return { items, hasMore, ...(total === undefined ? {} : { total }) };
}
