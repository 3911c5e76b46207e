import { absoluteUrl, classifyKind, parseDuration, splitArtist } from "../normalise.js";
import {
  SourceError,
  type ChartPeriod,
  type ItemKind,
  type ResolvedMedia,
  type SearchInput,
  type SourceAdapter,
  type SourceFetcher,
  type SourceItem,
  type SourceItemDetails,
  type SourcePage,
} from "../types.js";
import { valuesAt, extractHtml, extractJson, type Extracted, type Fields } from "./generic-extract.js";
import type { GenericOperation, GenericSourceConfig } from "./generic-config.js";
import { fillTemplate, pageJson, pageText } from "./site-answer.js";

/**
 * A source adapter made from configuration alone (`generic-config.ts`). It holds no state but
 * its config and fetcher: when a stored config changes, build a new one.
 */
export function createGenericAdapter(config: GenericSourceConfig, fetcher: SourceFetcher): SourceAdapter {
  const source = config.code;

  function address(template: string, values: Record<string, string | number>): string {
    const withBases = template.replace(/\{base:(\w+)\}/gu, (whole, name: string) => config.bases[name]?.replace(/\/$/u, "") ?? whole);
    return absoluteUrl(fillTemplate(withBases, values), config.baseUrl);
  }

  async function run(op: GenericOperation, what: string, values: Record<string, string | number>, signal?: AbortSignal): Promise<{ data: Extracted; url: string }> {
    const url = address(op.url, values);
    const answer = await fetcher.fetch({
      url,
      method: op.method,
      headers: { ...config.headers, ...op.headers },
      ...(op.body !== undefined ? { body: fillTemplate(op.body, values) } : {}),
      encoding: op.encoding ?? config.encoding,
      signal,
    });
    if (op.extract.type === "html") {
      const vars = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
      return { data: extractHtml(pageText(source, answer, what), op.extract, vars), url: answer.url };
    }
    const json = pageJson(source, answer, what);
    const ok = op.extract.ok;
    if (ok && valuesAt(json, ok.path)[0] !== ok.equals) {
      const message = ok.message ? valuesAt(json, ok.message)[0] : undefined;
      throw new SourceError(source, "http", `${what}: ${ok.path} is ${String(valuesAt(json, ok.path)[0])} ${typeof message === "string" ? message : ""}`.trim());
    }
    return { data: extractJson(json, op.extract), url: answer.url };
  }

  function toItem(fields: Fields, raw: Record<string, unknown>, pageUrl: string): SourceItem | null {
    if (!fields.id || !fields.title) return null;
    const split = splitArtist(fields.title);
    const duration = parseDuration(fields.duration ?? null);
    const sizeBytes = fields.size && Number.isFinite(Number(fields.size)) ? Number(fields.size) : null;
    const siteKind = fields.kind ? (config.kinds[fields.kind] ?? null) : null;
    return {
      source,
      sourceId: fields.id,
      url: fields.url ? absoluteUrl(fields.url, pageUrl) : address(config.itemUrl, { id: fields.id }),
      title: split.title,
      artist: fields.artist ?? split.artist,
      cover: fields.cover ? absoluteUrl(fields.cover, pageUrl) : null,
      duration,
      sizeBytes,
      kind: classifyKind({ siteKind, title: fields.title, duration, sizeBytes }),
      playtype: config.playtype,
      raw,
    };
  }

  function toPage({ data, url }: { data: Extracted; url: string }, what: string): SourcePage {
    if (!data.recognised) throw new SourceError(source, "layout", `${what}: no list on the page (layout changed?)`);
    const seen = new Set<string>();
    const items: SourceItem[] = [];
    for (const { fields, raw } of data.items) {
      const item = toItem(fields, raw, url);
      if (!item || seen.has(item.sourceId)) continue; // a card may link one item twice
      seen.add(item.sourceId);
      items.push({ ...item, position: items.length + 1 });
    }
    return { items, hasMore: data.hasMore, ...(data.total !== undefined ? { total: data.total } : {}) };
  }

  const byKind = (page: SourcePage, kind?: ItemKind): SourcePage => (kind ? { ...page, items: page.items.filter((i) => i.kind === kind) } : page);

  return {
    code: config.code,
    name: config.name,

    async search(input: SearchInput, signal?: AbortSignal) {
      if (!config.types.includes(input.type)) return { items: [], hasMore: false };
      const values = { keyword: input.keyword, page: input.page, nextPage: input.page + 1 };
      return byKind(toPage(await run(config.search, "search", values, signal), "search"), input.kind);
    },

    async listCategory(category: string, page: number, signal?: AbortSignal) {
      if (!config.category) return { items: [], hasMore: false };
      return toPage(await run(config.category, "category", { category, page, nextPage: page + 1 }, signal), "category");
    },

    async listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal) {
      const key = config.charts[chart.period];
      if (!config.chart || key === undefined) return { items: [], hasMore: false };
      const page = toPage(await run(config.chart, "chart", { chart: key, page: 1, nextPage: 2 }, signal), "chart");
      return { ...byKind(page, chart.kind), hasMore: false };
    },

    async details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
      if (!config.details) throw new SourceError(source, "not_found", "this source has no details page configured");
      const { data, url } = await run(config.details, "details", { id: sourceId }, signal);
      const first = data.items[0];
      const item = first ? toItem({ ...first.fields, id: sourceId }, first.raw, url) : null;
      if (!item) throw new SourceError(source, "layout", "details: no title on the page (layout changed?)");
      return { ...item, url: address(config.itemUrl, { id: sourceId }), tracklist: data.tracklist.map((label) => ({ label })) };
    },

    async resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
      for (const op of config.media) {
        let found: string | undefined;
        try {
          found = (await run(op, "media", { id: sourceId }, signal)).data.items[0]?.fields.url;
        } catch (error) {
          // An answer without an address moves on to the next way; a site that is down (5xx,
          // unreachable, refusing us) does not: that is the site's failure, not an expired item.
          const noAddress = error instanceof SourceError && (error.kind === "not_found" || error.kind === "layout" || (error.kind === "http" && (error.status ?? 0) < 500));
          if (noAddress) continue;
          throw error;
        }
        if (found) return { url: absoluteUrl(found, config.baseUrl), headers: op.mediaHeaders, format: op.format };
      }
      throw new SourceError(source, "expired", `item ${sourceId} has no playable address`);
    },
  };
}
