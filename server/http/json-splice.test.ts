import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonWith, reusedJson } from "./json-splice.js";

describe("pre-serialized JSON members", () => {
  const side = z.record(z.string(), z.array(z.number()));
  const page = z.object({ title: z.string(), list: z.array(z.number()) });

  it("gives the same JSON as serializing the whole object", () => {
    const value = { a: [1, 2], b: [] };
    const json = jsonWith({ title: "夜曲 \"x\"", list: [3] }, page, { side: reusedJson(value, side) });
    expect(JSON.parse(json)).toEqual({ title: "夜曲 \"x\"", list: [3], side: value });
    expect(JSON.parse(jsonWith({}, z.object({}), { data: "null" }))).toEqual({ data: null });
  });

  it("serializes a reused object once, and still checks values against the schema", () => {
    const value = { a: [1] };
    const first = reusedJson(value, side);
    value.a.push(2); // a later change to the same object is not seen: it is serialized once
    expect(reusedJson(value, side)).toBe(first);
    expect(() => reusedJson({ a: ["x"] }, side)).toThrow();
    expect(() => jsonWith({ title: 1, list: [] }, page, {})).toThrow();
  });
});
