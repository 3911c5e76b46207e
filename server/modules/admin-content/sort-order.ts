/** A row of a list kept in order by `sort` (then id): categories, blocks of one position. */
export interface Sorted {
  id: number;
  sort: number;
}

/** Gap between renumbered rows: an admin's own number typed later still fits between two. */
export const SORT_STEP = 10;

/** The audit's before and after of a renumbering: each changed row's old and new number. */
export function sortChange(list: readonly Sorted[], changes: readonly Sorted[]) {
  const old = new Map(list.map((r) => [r.id, r.sort]));
  return {
    before: { sort: Object.fromEntries(changes.map((c) => [c.id, old.get(c.id)])) },
    after: { sort: Object.fromEntries(changes.map((c) => [c.id, c.sort])) },
  };
}

/**
 * Drag-to-sort (ADR 0065): `id` moves to where `to` is in `list` (already in display order: sort,
 * then id), the rows between shift by one, and the whole list is renumbered 0, 10, 20… Answers
 * only the rows whose number changes. The order is the server's, not the page's: a table shown a
 * page at a time still gets one consistent order.
 */
export function moveTo(list: readonly Sorted[], id: number, to: number): Sorted[] {
  const from = list.findIndex((r) => r.id === id);
  const target = list.findIndex((r) => r.id === to);
  if (from < 0 || target < 0) throw new RangeError("moveTo: id not in the list");
  const order = list.filter((r) => r.id !== id);
  order.splice(target, 0, list[from]!);
  return order.flatMap((row, i) => (row.sort === i * SORT_STEP ? [] : [{ id: row.id, sort: i * SORT_STEP }]));
}
