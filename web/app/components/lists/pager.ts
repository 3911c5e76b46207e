/** One cell of a pager's number row: a page, or a run of skipped pages (…). */
export type PagerCell = number | "gap";

/**
 * The page numbers shown around `current` of `last` pages, djuu-style:
 * 1 … 4 5 [6] 7 8 … 70. The first and last pages always show, `around` pages either side of the
 * current one, and "gap" where pages are skipped; a gap that would hide a single page shows that
 * page instead (… is no shorter than the number it hides).
 */
export function pagerCells(current: number, last: number, around = 2): PagerCell[] {
  if (!(last >= 1)) return [];
  const page = clampPage(current, last);
  const shown = new Set<number>([1, last]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= last) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const cells: PagerCell[] = [];
  for (const p of sorted) {
    const before = cells.at(-1);
    if (typeof before === "number" && p - before === 2) cells.push(p - 1);
    else if (typeof before === "number" && p - before > 2) cells.push("gap");
    cells.push(p);
  }
  return cells;
}

/** A page number within 1..last; anything that is not a whole number gives 1. */
export function clampPage(page: number, last: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, last));
}

/** What a jump box's text asks for: a page within 1..last, or null when it names no number. */
export function jumpTarget(text: string, last: number): number | null {
  const digits = text.trim().replace(/[０-９]/gu, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (!/^\d{1,9}$/u.test(digits)) return null;
  return clampPage(Number(digits), last);
}

/**
 * The last page the search and category answers accept (contracts' SEARCH_PAGE_MAX and
 * CATEGORY_PAGE_MAX; not imported: contracts/category.ts brings zod into the bundle).
 */
export const LIST_PAGE_MAX = 1000;

/** Number of pages of `total` items at `pageSize` a page (at least 1). */
export const pageCount = (total: number, pageSize: number, max = LIST_PAGE_MAX) =>
  Math.min(max, Math.max(1, Math.ceil(total / Math.max(1, pageSize))));
