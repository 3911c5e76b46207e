import { describe, expect, it } from "vitest";
import { boundedMemo } from "./bounded-memo.js";

describe("boundedMemo", () => {
  it("computes a key once, undefined and null answers included, and forgets everything when full", () => {
    const calls: string[] = [];
    const memo = boundedMemo(2, (key: string) => {
      calls.push(key);
      return key === "u" ? undefined : key === "n" ? null : key.length;
    });
    expect([memo("ab"), memo("ab"), memo("u"), memo("u")]).toEqual([2, 2, undefined, undefined]);
    expect(calls).toEqual(["ab", "u"]);
    expect(memo("n")).toBeNull(); // full: forgets "ab" and "u", keeps "n"
    expect(memo("n")).toBeNull();
    expect(memo("ab")).toBe(2);
    expect(calls).toEqual(["ab", "u", "n", "ab"]);
  });
});
