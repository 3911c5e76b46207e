import { describe, expect, it } from "vitest";
import { CATEGORY_PAGE_MAX } from "@contracts/category";
import { SEARCH_PAGE_MAX } from "@contracts/search-texts";
import { clampPage, jumpTarget, LIST_PAGE_MAX, pageCount, pagerCells } from "./pager";

describe("pager cells", () => {
  it("shows the first, the last and two either side of the current page, … between", () => {
    expect(pagerCells(6, 70)).toEqual([1, "gap", 4, 5, 6, 7, 8, "gap", 70]);
  });

  it("shows every page when there are few", () => {
    expect(pagerCells(1, 1)).toEqual([1]);
    expect(pagerCells(2, 3)).toEqual([1, 2, 3]);
    expect(pagerCells(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("shows the one page a gap would hide instead of …", () => {
    expect(pagerCells(4, 70)).toEqual([1, 2, 3, 4, 5, 6, "gap", 70]);
    expect(pagerCells(67, 70)).toEqual([1, "gap", 65, 66, 67, 68, 69, 70]);
  });

  it("at the ends keeps the window inside the pages", () => {
    expect(pagerCells(1, 24)).toEqual([1, 2, 3, "gap", 24]);
    expect(pagerCells(24, 24)).toEqual([1, "gap", 22, 23, 24]);
  });

  it("clamps a current page outside the pages and gives nothing for no pages", () => {
    expect(pagerCells(99, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerCells(-3, 24)).toEqual([1, 2, 3, "gap", 24]);
    expect(pagerCells(1, 0)).toEqual([]);
  });

  it("takes a narrower window (phones)", () => {
    expect(pagerCells(6, 70, 1)).toEqual([1, "gap", 5, 6, 7, "gap", 70]);
  });
});

describe("jump box", () => {
  it("reads a page number, full-width digits too, clamped to the pages", () => {
    expect(jumpTarget("12", 70)).toBe(12);
    expect(jumpTarget(" ３ ", 70)).toBe(3);
    expect(jumpTarget("999", 70)).toBe(70);
    expect(jumpTarget("0", 70)).toBe(1);
  });

  it("names no page for empty or non-numeric text", () => {
    expect(jumpTarget("", 70)).toBeNull();
    expect(jumpTarget("abc", 70)).toBeNull();
    expect(jumpTarget("-2", 70)).toBeNull();
    expect(jumpTarget("1.5", 70)).toBeNull();
  });

  it("clamps and counts pages", () => {
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(3.7, 5)).toBe(3);
    expect(pageCount(348, 5)).toBe(70);
    expect(pageCount(0, 10)).toBe(1);
  });

  it("never offers a page the answers refuse", () => {
    expect(LIST_PAGE_MAX).toBe(SEARCH_PAGE_MAX);
    expect(LIST_PAGE_MAX).toBe(CATEGORY_PAGE_MAX);
    expect(pageCount(50_000, 10)).toBe(1000);
  });
});
