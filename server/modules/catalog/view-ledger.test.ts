import { describe, expect, it } from "vitest";
import { viewLedger } from "./view-ledger.js";

describe("viewLedger", () => {
  it("counts a visitor's view of an item once a day, and again the next day", () => {
    const ledger = viewLedger();
    expect(ledger.firstToday(1, "visitor-a", "2026-11-22")).toBe(true);
    expect(ledger.firstToday(1, "visitor-a", "2026-11-22")).toBe(false);
    expect(ledger.firstToday(2, "visitor-a", "2026-11-22")).toBe(true);
    expect(ledger.firstToday(1, "visitor-b", "2026-11-22")).toBe(true);
    expect(ledger.firstToday(1, "visitor-a", "2026-11-23")).toBe(true);
    // A late request of the day before still finds its day.
    expect(ledger.firstToday(1, "visitor-a", "2026-11-22")).toBe(false);
    // Two days on, the oldest day is gone: its views are not kept for ever.
    expect(ledger.firstToday(1, "visitor-a", "2026-11-24")).toBe(true);
    expect(ledger.firstToday(1, "visitor-a", "2026-11-22")).toBe(true);
  });

  it("keeps at most maxEntries views a day, forgetting the oldest first", () => {
    const ledger = viewLedger(3);
    for (const id of [1, 2, 3]) ledger.firstToday(id, "v", "2026-11-22");
    expect(ledger.firstToday(4, "v", "2026-11-22")).toBe(true); // forgets item 1
    expect(ledger.firstToday(2, "v", "2026-11-22")).toBe(false);
    expect(ledger.firstToday(1, "v", "2026-11-22")).toBe(true);
  });
});
