import { envelopeSchema, ok } from "@contracts/envelope";
import { categoryPageSchema, type GetSortQuery } from "@contracts/category";
import { SharedAnswer } from "../../http/shared-answer.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { bareDiyname, type CategoryService } from "./category-service.js";

/**
 * A category page's API answer is the same for every visitor: it is built, serialized and
 * compressed once and kept until a change event names one of its tags: its categories, an item
 * of its charts, the sources, the navigation or the settings (ADR 0012, 0016, 0054). The "hot" order and the charts beside it move with
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

/** GET /api/forntend/getsort's response schema: the route declares it, the kept answer is encoded through it. */
export const categoryAnswerSchema = envelopeSchema(categoryPageSchema);

const keyOf = (query: GetSortQuery) => JSON.stringify([bareDiyname(query.diyname), query.page, query.filter]);

export function categoryAnswers(
  categories: Pick<CategoryService, "page">,
  { caches }: { caches: CacheRegistry },
) {
  const cache = caches.create<SharedAnswer>({
    name: "category-pages",
    freshMs: SORT_ANSWER_FRESH_MS,
    staleMs: SORT_ANSWER_MAX_STALE_MS,
    maxEntries: SORT_ANSWER_MAX,
    maxBytes: SORT_ANSWER_MAX_BYTES,
    sizeOf: (answer) => answer.bytesHeld,
    // Its tags are those of `categories.page` (its categories, the sources, the navigation, the
    // charts' items, the settings: a category without SEO texts of its own shows the site's).
  });
  async function build(query: GetSortQuery): Promise<SharedAnswer> {
    // Encoded whole, the charts beside it too (~50 KB), once per fill of this cache (ADR 0057).
    return SharedAnswer.json(categoryAnswerSchema, ok(await categories.page(query)));
  }
  return {
    get: (query: GetSortQuery) => cache.get(keyOf(query), () => build(query)),
  };
}
