import { describe, expect, it } from "vitest";
import { etagMatches, parseRange } from "./range.js";

describe("parseRange", () => {
  it.each([
    [undefined, { kind: "none" }],
    ["bytes=0-99", { kind: "range", start: 0, end: 99 }],
    ["bytes=100-", { kind: "range", start: 100, end: 999 }],
    ["bytes=-500", { kind: "range", start: 500, end: 999 }],
    ["BYTES=1-1", { kind: "range", start: 1, end: 1 }],
    ["bytes=900-5000", { kind: "range", start: 900, end: 999 }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=5-4", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=x-1", { kind: "unsatisfiable" }],
    ["bytes=0-1,4-5", { kind: "none" }],
    ["bytes=2000-,3000-", { kind: "unsatisfiable" }],
    // RFC 9110 §14.1.2: the satisfiable part is served, the unsatisfiable ones dropped.
    ["bytes=0-99, 5000-", { kind: "range", start: 0, end: 99 }],
    ["bytes=5000-, 900-", { kind: "range", start: 900, end: 999 }],
    ["bytes=1000-, -10", { kind: "range", start: 990, end: 999 }],
    ["bytes=-0, 10-", { kind: "range", start: 10, end: 999 }],
    // Overlapping or touching parts are one.
    ["bytes=0-99, 50-199, 200-299", { kind: "range", start: 0, end: 299 }],
    ["bytes=500-, -100", { kind: "range", start: 500, end: 999 }],
    ["bytes=0-99, 5-4", { kind: "unsatisfiable" }],
    ["seconds=1-2", { kind: "none" }],
    ["garbage", { kind: "none" }],
  ])("%s of 1000 bytes → %j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it("never yields a range outside the file", () => {
    for (let size = 0; size < 5; size++) {
      for (const h of ["bytes=0-", "bytes=-1", "bytes=-9", "bytes=3-", "bytes=1-2"]) {
        const r = parseRange(h, size);
        if (r.kind === "range") {
          expect(r.start).toBeGreaterThanOrEqual(0);
          expect(r.end).toBeLessThan(size);
          expect(r.start).toBeLessThanOrEqual(r.end);
        }
      }
    }
  });
});

describe("etagMatches", () => {
  it("compares strongly or weakly", () => {
    expect(etagMatches('"a"', '"a"', false)).toBe(true);
    expect(etagMatches('W/"a"', '"a"', false)).toBe(false);
    expect(etagMatches('"b", W/"a"', '"a"', true)).toBe(true);
    expect(etagMatches("*", '"a"', false)).toBe(true);
  });
});
