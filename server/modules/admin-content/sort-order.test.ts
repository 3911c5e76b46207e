import { describe, expect, it } from "vitest";
import { moveTo } from "./sort-order.js";

const list = (...ids: number[]) => ids.map((id) => ({ id, sort: 0 }));
const apply = (rows: { id: number; sort: number }[], changes: { id: number; sort: number }[]) => {
  const next = new Map(rows.map((r) => [r.id, r.sort]));
  for (const c of changes) next.set(c.id, c.sort);
  return [...next].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([id]) => id);
};

describe("moveTo", () => {
  it("moves down and up to the target's place; ties in sort are broken by the list's order", () => {
    const rows = list(1, 2, 3, 4);
    expect(apply(rows, moveTo(rows, 1, 3))).toEqual([2, 3, 1, 4]);
    expect(apply(rows, moveTo(rows, 4, 2))).toEqual([1, 4, 2, 3]);
    expect(apply(rows, moveTo(rows, 2, 2))).toEqual([1, 2, 3, 4]);
  });

  it("answers only the rows whose number changes", () => {
    const rows = [
      { id: 7, sort: 0 },
      { id: 8, sort: 10 },
      { id: 9, sort: 20 },
    ];
    expect(moveTo(rows, 8, 8)).toEqual([]);
    expect(moveTo(rows, 9, 8)).toEqual([
      { id: 9, sort: 10 },
      { id: 8, sort: 20 },
    ]);
  });

  it("refuses an id that is not in the list", () => {
    expect(() => moveTo(list(1, 2), 3, 1)).toThrow(RangeError);
    expect(() => moveTo(list(1, 2), 1, 3)).toThrow(RangeError);
  });
});
