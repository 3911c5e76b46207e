// Type-only imports: no zod reaches the browser.
import type { SearchResult, SearchStreamDone, SearchStreamSource } from "@contracts/search";
import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages } from "@contracts/search-texts";
import { type HomeSearch, type SourceState, stateOf } from "./search-api";

/** What the search page shows: one page of hits and, for a streamed search, each source's state. */
export interface ShownSearch {
  query: HomeSearch;
  data: SearchResult;
  /** Streamed: every source of the search in the server's order; null for the merged answer. */
  sources: SourceState[] | null;
  /** Every source has answered (always for the merged answer). */
  done: boolean;
}

/**
 * A source's event on the page (ADR 0050): its hits go after those shown (never between them:
 * nothing the visitor is looking at moves; the server left out hits already sent), its copies of
 * hits shown are set as those rows' places (ADR 0052: same row, same place), its total adds up,
 * and its state replaces 搜索中. The first event (本站) starts the page anew.
 */
export function applySource(shown: ShownSearch | null, query: HomeSearch, event: SearchStreamSource): ShownSearch {
  const fresh = event.sources !== undefined || shown === null || shown.query !== query;
  const base: ShownSearch = fresh
    ? {
        query,
        data: { list: [], total: 0, capped: false, page: query.page, pageSize: SEARCH_DEFAULT_PAGE_SIZE, errors: [] },
        sources: (event.sources ?? [event]).map((s) => ({ source: s.source, name: s.name, state: "searching", total: 0, capped: false })),
        done: false,
      }
    : shown;
  const state = stateOf(event);
  const sources = base.sources ?? [];
  return {
    ...base,
    data: {
      ...base.data,
      list: [...withPlaces(base.data.list, event.places), ...event.list],
      total: base.data.total + event.total,
      capped: base.data.capped || event.capped,
      errors: event.error ? [...base.data.errors, { source: event.source, msg: event.error }] : base.data.errors,
    },
    sources: sources.some((s) => s.source === event.source) ? sources.map((s) => (s.source === event.source ? state : s)) : [...sources, state],
  };
}

/** `done`: the server's totals and errors are the final word. */
export function applyDone(shown: ShownSearch | null, done: SearchStreamDone): ShownSearch | null {
  if (!shown) return null;
  return { ...shown, done: true, data: { ...shown.data, total: done.total, capped: done.capped, pageSize: done.pageSize, errors: done.errors } };
}

/** The connection broke after some events: the sources still out have failed; what arrived stays. */
export function applyBroken(shown: ShownSearch | null): ShownSearch | null {
  if (!shown) return null;
  const out = (shown.sources ?? []).filter((s) => s.state === "searching");
  return {
    ...shown,
    done: true,
    sources: (shown.sources ?? []).map((s) => (s.state === "searching" ? { ...s, state: "failed", reason: searchMessages.searchFailed } : s)),
    data: { ...shown.data, errors: [...shown.data.errors, ...out.map((s) => ({ source: s.source, msg: searchMessages.searchFailed }))] },
  };
}

/** Rows shown that a later source also found, with their places now; the others untouched. */
function withPlaces(list: SearchResult["list"], updates: SearchStreamSource["places"]): SearchResult["list"] {
  if (!updates?.length) return list;
  const found = new Map(updates.map((u) => [`${u.source}\u0000${String(u.id)}`, u.places]));
  return list.map((item) => {
    const places = found.get(`${item.source}\u0000${String(item.id)}`);
    return places ? { ...item, places } : item;
  });
}
