import { envelopeSchema, ok } from "@contracts/envelope";
import { categoryPageSchema, type GetSortQuery } from "@contracts/category";
import { chartSideSchema } from "@contracts/charts";
import { z } from "zod";
import type { EventBus } from "../../events/bus.js";
import { jsonWith, reusedJson } from "../../http/json-splice.js";
import { SharedAnswer } from "../../http/shared-answer.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { chartSideItemIds } from "../charts/service.js";
import { bareDiyname, type CategoryService } from "./category-service.js";

/**
 * A category page's API answer is the same for every visitor: it is built, serialized and
 * compressed once and kept until a change event says one of its items, its category or a
 * source site changed (ADR 0012, 0016). The "hot" order and the charts beside it move with
 * views and plays, which publish no event, so a page older than SORT_ANSWER_FRESH_MS is rebuilt
 * in the background while the old one is still served.
 *
 * Capped by bytes as well as entries: an answer kept for a client that takes no compression
 * holds its plain JSON (~50 KB) besides the compressed forms (~12 KB).
 */
export const SORT_ANSWER_FRESH_MS = 60_000;
const SORT_ANSWER_MAX_STALE_MS = 10 * 60_000;
const SORT_ANSWER_MAX = 4_000;
export const SORT_ANSWER_MAX_BYTES = 64 * 1024 * 1024;

const pageFields = categoryPageSchema.omit({ side: true });
const envelopeFields = envelopeSchema(z.null()).omit({ data: true });

const keyOf = (query: GetSortQuery) => JSON.stringify([bareDiyname(query.diyname), query.page, query.filter]);
const diynameOf = (key: string) => (JSON.parse(key) as [string])[0];

export function categoryAnswers(
  categories: Pick<CategoryService, "page" | "diynamesCovering">,
  { caches, bus }: { caches: CacheRegistry; bus: EventBus },
) {
  const cache = caches.create<SharedAnswer>({
    name: "category-pages",
    freshMs: SORT_ANSWER_FRESH_MS,
    staleMs: SORT_ANSWER_MAX_STALE_MS,
    maxEntries: SORT_ANSWER_MAX,
    maxBytes: SORT_ANSWER_MAX_BYTES,
    sizeOf: (answer) => answer.bytesHeld,
  });
  bus.subscribe((event) => {
    if (event.type === "charts") return cache.markStale();
    // `settings`: a category without SEO texts of its own shows the site's.
    if (event.type === "categories" || event.type === "sources" || event.type === "settings") return cache.clear();
    if (event.type !== "items") return;
    const diynames = categories.diynamesCovering(event.categoryIds);
    if (diynames === null) return cache.clear();
    const dropped = new Set(diynames);
    // A page lists items of its category, and the charts beside it may show any item.
    const inCharts = (answer: SharedAnswer | undefined) => {
      const shown = answer && chartIdsOf.get(answer);
      return !shown || (event.action !== "created" && event.ids.some((id) => shown.has(id)));
    };
    cache.deleteWhere((key, answer) => dropped.has(diynameOf(key)) || inCharts(answer));
  });

  /** The items in the charts of each kept answer (sets shared between answers of one side). */
  const chartIdsOf = new WeakMap<SharedAnswer, ReadonlySet<number>>();
  async function build(query: GetSortQuery): Promise<SharedAnswer> {
    const { side, ...data } = await categories.page(query);
    // `side` (~50 KB, cached by the charts service) is serialized once per charts cache fill.
    const { data: _, ...head } = ok(null);
    const answer = new SharedAnswer(jsonWith(head, envelopeFields, { data: jsonWith(data, pageFields, { side: reusedJson(side, chartSideSchema) }) }));
    chartIdsOf.set(answer, chartSideItemIds(side));
    return answer;
  }
  return {
    get: (query: GetSortQuery) => cache.get(keyOf(query), () => build(query)),
  };
}
