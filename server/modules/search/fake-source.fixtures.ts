import type { SourceAdapterEntry } from "../sources/source-provider.js";
import { SourceError, type SearchInput, type SourceAdapter, type SourceItem } from "../sources/types.js";

/**
 * A site for search tests (stream and ranking routes): it answers every search after `latencyMs`
 * with these titles (or fails, or never answers before its timeout), and counts its searches.
 * `artist`: every hit's artist (default `${name}歌手`: no two sites share a work).
 */
export function fakeSource(code: string, name: string, latencyMs: number, titles: string[] | "fail" | "hang", options: { artist?: string; timeoutMs?: number } = {}) {
  const calls: SearchInput[] = [];
  const item = (title: string, i: number): SourceItem => ({
    source: code,
    sourceId: `${i}`,
    url: `https://${code}.example/play/${i}`,
    title,
    artist: options.artist ?? `${name}歌手`,
    cover: null,
    duration: null,
    sizeBytes: null,
    kind: "mix",
    playtype: "mp3",
    raw: {},
  });
  const adapter = {
    code,
    name,
    async search(input: SearchInput, signal?: AbortSignal) {
      calls.push(input);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, titles === "hang" ? 60_000 : latencyMs);
        signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
      });
      if (titles === "fail" || titles === "hang") throw new SourceError(code, "layout", "page changed");
      return { items: titles.map(item), hasMore: false, total: titles.length };
    },
  } as unknown as SourceAdapter;
  const entry: SourceAdapterEntry = { code, name, homepage: `https://${code}.example`, timeoutMs: options.timeoutMs ?? 2_000, adapter };
  return { entry, calls };
}
