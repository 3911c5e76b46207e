import { envelopeSchema, ok } from "@contracts/envelope";
import { categoryPageSchema, type GetSortQuery } from "@contracts/category";
import { chartSideSchema } from "@contracts/charts";
import { z } from "zod";
import { jsonWith, reusedJson } from "../../http/json-splice.js";
import { SharedAnswer } from "../../http/shared-answer.js";
import { answerCache } from "../../lib/answer-cache.js";
import { bareDiyname, type CategoryService } from "./category-service.js";

/**
 * A category page's API answer is the same for every visitor: it is built, serialized and
 * compressed once and kept until a write calls `invalidate()` (ADR 0012). The "hot" order and
 * the charts beside it move with views and plays, which write nothing here, so a page older
 * than SORT_ANSWER_FRESH_MS is rebuilt in the background while the old one is still served.
 * At most SORT_ANSWER_MAX answers are kept (~12 KB each once compressed, see SharedAnswer):
 * the first 50 pages of both orders of about 40 categories.
 */
export const SORT_ANSWER_FRESH_MS = 60_000;
const SORT_ANSWER_MAX_STALE_MS = 10 * 60_000;
const SORT_ANSWER_MAX = 4_000;

const pageFields = categoryPageSchema.omit({ side: true });
const envelopeFields = envelopeSchema(z.null()).omit({ data: true });

export function categoryAnswers(
  categories: Pick<CategoryService, "page">,
  onRefreshError?: (key: string, err: unknown) => void,
) {
  const cache = answerCache<SharedAnswer>({
    freshMs: SORT_ANSWER_FRESH_MS,
    maxStaleMs: SORT_ANSWER_MAX_STALE_MS,
    maxEntries: SORT_ANSWER_MAX,
    onRefreshError,
  });
  async function build(query: GetSortQuery): Promise<SharedAnswer> {
    const { side, ...data } = await categories.page(query);
    // `side` (~50 KB, cached by the charts service) is serialized once per charts cache fill.
    const { data: _, ...head } = ok(null);
    return new SharedAnswer(jsonWith(head, envelopeFields, { data: jsonWith(data, pageFields, { side: reusedJson(side, chartSideSchema) }) }));
  }
  return {
    get: (query: GetSortQuery) => cache.get(JSON.stringify([bareDiyname(query.diyname), query.page, query.filter]), () => build(query)),
    invalidate: () => cache.invalidate(),
  };
}
