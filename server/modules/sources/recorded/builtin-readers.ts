import type { Extraction } from "@contracts/recorded";
import { apiListPage, listenAnswer, readApiJson } from "../adapters/djuu-api.js";
import { readListPage, readPlayPage } from "../adapters/djuu-pages.js";
import { decodeBody } from "../fetch/decode.js";
import { readMinxAlbums, readMinxList, readMinxPlayPage, readMinxRank } from "../parsers/minx172.js";
import { readVvvdjCategory, readVvvdjCharts, readVvvdjPlayPage, readVvvdjSearch, readVvvdjTemp } from "../parsers/vvvdj.js";

/**
 * The built-in sites' parsers over a recorded answer (issue 22): which reader an answer goes to
 * is told by its URL's path, as each adapter asks for it (SOURCES.md). A replay, the command
 * line and the corpus test read answers through here; the adapters keep their own fetching.
 */

export const BUILTIN_VERSION = "内置解析器";
const TITLES_SHOWN = 5;

interface Reading {
  /** What the reader is (search, play…). */
  reader: string;
  titles: string[];
}

type Reader = (text: string, url: string) => Reading;

function envelopeData(text: string): unknown {
  const written = readApiJson(text) as { code?: unknown; data?: unknown } | undefined;
  if (!written || typeof written !== "object") throw new Error("不是 app 接口的 JSON 信封");
  if (Number(written.code) !== 1) throw new Error(`app 接口返回 code ${String(written.code)}`);
  return written.data;
}

function djuu(text: string, url: string): Reading {
  const path = new URL(url).pathname;
  if (path.includes("/app/v1/")) {
    if (path.endsWith("/music/listen")) {
      const answer = listenAnswer.parse(envelopeData(text));
      if (!answer.listenurl) throw new Error("listen: 没有播放地址");
      return { reader: "listen", titles: [answer.listenurl] };
    }
    const page = apiListPage("djuu", envelopeData(text), (id) => `https://www.djuu.com/play/${id}.html`, "api");
    return { reader: "api-list", titles: page.items.map((i) => (i.artist ? `${i.artist} - ${i.title}` : i.title)) };
  }
  if (/\/play\/\d+\.html$/u.test(path)) {
    const page = readPlayPage(text, url);
    const title = page.music.name ?? page.heading;
    if (!title || !page.music.file) throw new Error("play page: 没有 var music 的 name/file");
    return { reader: "play", titles: [title] };
  }
  const page = readListPage(text, url);
  if (!page.recognised) throw new Error("list: 页面上没有列表 (版面变了?)");
  return { reader: "list", titles: page.anchors.map((a) => a.title) };
}

function minx172(text: string, url: string): Reading {
  const path = new URL(url).pathname;
  const titles = (items: { title: string; artist?: string | null }[]) => items.map((i) => (i.artist ? `${i.artist} - ${i.title}` : i.title));
  if (path.startsWith("/play/")) return { reader: "play", titles: [readMinxPlayPage(text, url).details.title] };
  if (path.startsWith("/ranks/")) return { reader: "rank", titles: titles(readMinxRank(text, url).items) };
  if (path.startsWith("/album/order-hot")) return { reader: "albums", titles: readMinxAlbums(text, url).map((a) => a.title) };
  return { reader: "list", titles: titles(readMinxList(text, url).items) };
}

function vvvdj(text: string, url: string): Reading {
  const path = new URL(url).pathname;
  const titles = (items: { title: string; artist?: string | null }[]) => items.map((i) => (i.artist ? `${i.artist} - ${i.title}` : i.title));
  if (path.startsWith("/play/ajax/temp")) return { reader: "temp", titles: titles(readVvvdjTemp(text, url)) };
  if (path.startsWith("/play/")) return { reader: "play", titles: [readVvvdjPlayPage(text, url).details.title] };
  if (path.startsWith("/search/")) return { reader: "search", titles: titles(readVvvdjSearch(text, url).items) };
  if (path.startsWith("/sort/")) return { reader: "category", titles: titles(readVvvdjCategory(text, url).items) };
  if (path === "/" || path === "/index.html") return { reader: "charts", titles: Object.values(readVvvdjCharts(text, url)).flatMap((p) => titles(p.items)) };
  throw new Error(`没有读取这个地址的解析器: ${path}`);
}

export const BUILTIN_READERS: Record<string, Reader> = { djuu, "172minx": minx172, vvvdj };

export const isBuiltinReader = (source: string): boolean => Object.hasOwn(BUILTIN_READERS, source);

/** The text of a recorded body as the adapters decode it (charset from the header or the page: GBK survives). */
export function answerText(body: Buffer, headers: Record<string, string>): string {
  return decodeBody(body, headers["content-type"]);
}

/** What a built-in source's parser extracts from one recorded answer. */
export function readRecorded(source: string, answer: { url: string; status: number; headers: Record<string, string>; body: Buffer }): Extraction & { reader: string; all: string[] } {
  const reader = BUILTIN_READERS[source];
  const none = (error: string) => ({ version: BUILTIN_VERSION, reader: "", count: 0, titles: [], all: [], error });
  if (!reader) return none(`没有内置解析器: ${source}`);
  if (answer.status >= 400) return none(`HTTP ${answer.status}`);
  try {
    const read = reader(answerText(answer.body, answer.headers), answer.url);
    return { version: BUILTIN_VERSION, reader: read.reader, count: read.titles.length, titles: read.titles.slice(0, TITLES_SHOWN), all: read.titles, error: null };
  } catch (err) {
    return none(err instanceof Error ? err.message : String(err));
  }
}
