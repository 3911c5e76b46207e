import { envelopeSchema, ok } from "@contracts/envelope";
import { categoryPageSchema, type GetSortQuery } from "@contracts/category";
import { chartSideSchema } from "@contracts/charts";
import { z } from "zod";
import { jsonWith, reusedJson } from "../../http/json-splice.js";
import { SharedAnswer } from "../../http/shared-answer.js";
import { keyedTtlCache } from "../../lib/ttl-cache.js";
import { bareDiyname, type CategoryService } from "./category-service.js";

/**
 * A category page's API answer is the same for every visitor: it is built, serialized and
 * compressed once per SORT_ANSWER_TTL_MS and page, so a popular page costs no query per
 * request. Back-office edits show within that time, or at once after `invalidate()`.
 * At most SORT_ANSWER_MAX answers are kept (~65 KB each with their compressed forms).
 */
export const SORT_ANSWER_TTL_MS = 5_000;
const SORT_ANSWER_MAX = 1_000;

const pageFields = categoryPageSchema.omit({ side: true });
const envelopeFields = envelopeSchema(z.null()).omit({ data: true });

export function categoryAnswers(categories: Pick<CategoryService, "page">) {
  const cache = keyedTtlCache<SharedAnswer>({ ttlMs: SORT_ANSWER_TTL_MS, maxEntries: SORT_ANSWER_MAX });
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
