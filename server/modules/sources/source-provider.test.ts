import { describe, expect, it } from "vitest";
import { healthBoard } from "./health.js";
import { sourceProvider } from "./source-provider.js";
import { SourceError, type SourceAdapter } from "./types.js";

const refuse = (error: SourceError) => () => Promise.reject(error);

/** An adapter whose searches fail as given (the other methods are never called here). */
function failingAdapter(search: SourceAdapter["search"]): SourceAdapter {
  const never = () => Promise.reject(new Error("not used"));
  return { code: "site", name: "站", search, listCategory: never, listChart: never, details: never, resolveMedia: never };
}

describe("a source's search provider and its breaker", () => {
  const query = { keyword: "夜曲", page: 1, pageSize: 20, type: "mp3" as const };

  it("counts the site's failures, and not a call our own queue never began (busy)", async () => {
    const board = healthBoard({ failureThreshold: 2, coolDownMs: 60_000 });
    const health = board.track("site", "站");
    const busy = sourceProvider({ code: "site", name: "站", homepage: "", adapter: failingAdapter(refuse(new SourceError("site", "busy", "the sandbox did not begin the call"))) }, health);
    for (let i = 0; i < 5; i++) await expect(busy.search(query, new AbortController().signal)).rejects.toMatchObject({ kind: "busy" });
    expect(board.list()[0]).toMatchObject({ state: "closed", failures: 0, calls: 0 });

    const down = sourceProvider({ code: "site", name: "站", homepage: "", adapter: failingAdapter(refuse(new SourceError("site", "timeout", "slow"))) }, health);
    for (let i = 0; i < 2; i++) await expect(down.search(query, new AbortController().signal)).rejects.toMatchObject({ kind: "timeout" });
    expect(board.list()[0]).toMatchObject({ state: "open", failures: 2 });
  });
});
