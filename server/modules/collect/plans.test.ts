import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGenericConfig } from "../sources/adapters/generic-config.js";
import { vvvdjCategoryKeys } from "../sources/adapters/vvvdj.js";
import { MINX172_GENRES } from "../sources/parsers/minx172.js";
import { chartKey, describeUnit, planFor } from "./plans.js";

const djuuConfig = JSON.parse(readFileSync(new URL("../sources/adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;
const SPEC_CHARTS = ["day:mix", "week:mix", "month:mix", "quarter:mix", "week:single", "month:single", "quarter:single"];

describe("collection plans", () => {
  it("walk the spec's seven charts first on every built-in site (no single day chart)", () => {
    for (const source of ["djuu", "172minx", "vvvdj"]) {
      const plan = planFor(source)!;
      const charts = plan.filter((u) => u.type === "chart");
      expect(charts.map((u) => chartKey(u as { period: string; kind: string })), source).toEqual(SPEC_CHARTS);
      expect(plan.slice(0, 7)).toEqual(charts);
      const keys = plan.flatMap((u) => (u.type === "category" ? [u.key] : []));
      expect(new Set(keys).size, source).toBe(keys.length);
    }
  });

  it("walk each site's own categories, a few pages each, with the kind the category says", () => {
    const djuu = planFor("djuu")!;
    expect(djuu.find((u) => u.type === "category" && u.key === "2")).toEqual({ type: "category", key: "2", name: "慢摇串烧", kind: "mix", maxPages: 3 });
    expect(djuu.filter((u) => u.type === "category")).toHaveLength(16);

    const minx = planFor("172minx")!.filter((u) => u.type === "category");
    expect(minx.map((u) => (u.type === "category" ? u.key : ""))).toEqual([...Object.keys(MINX172_GENRES), "ranks/sole", "ranks/wwphb", "ranks/housephb"]);
    // Rank pages answer the same list for every page number: one page.
    expect(minx.find((u) => u.type === "category" && u.key === "ranks/sole")).toMatchObject({ name: "独家榜", maxPages: 1 });

    const vvvdj = planFor("vvvdj", { maxPages: 2 })!.filter((u) => u.type === "category");
    expect(vvvdj.map((u) => (u.type === "category" ? u.key : ""))).toEqual(vvvdjCategoryKeys());
    expect(vvvdj[0]).toEqual({ type: "category", key: "c1/1", name: "的高串烧", kind: "mix", maxPages: 2 });
    expect(describeUnit(vvvdj[0]!)).toBe("category c1/1 的高串烧");
  });

  it("a generic source walks the charts its config maps and the categories it lists", () => {
    const config = parseGenericConfig({ ...djuuConfig, code: "mydj", charts: { week: "1", month: "2" }, categories: [{ key: "2", name: "慢摇串烧", kind: "mix" }, { key: "4", name: "中文Remix", maxPages: 5 }] });
    expect(planFor("mydj", { genericConfig: config })).toEqual([
      { type: "chart", period: "week", kind: "mix", maxPages: 1 },
      { type: "chart", period: "month", kind: "mix", maxPages: 1 },
      { type: "chart", period: "week", kind: "single", maxPages: 1 },
      { type: "chart", period: "month", kind: "single", maxPages: 1 },
      { type: "category", key: "2", name: "慢摇串烧", kind: "mix", maxPages: 3 },
      { type: "category", key: "4", name: "中文Remix", maxPages: 5 },
    ]);
    // Without categories (the field defaults to none) a generic source walks its charts only.
    expect(parseGenericConfig(djuuConfig).categories).toEqual([]);
    expect(planFor("unknown-site")).toBeUndefined();
  });
});
