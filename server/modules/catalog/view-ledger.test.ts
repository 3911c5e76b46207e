import { describe, expect, it } from "vitest";
import { VIEW_ENTRY_BYTES, viewKey, viewLedger } from "./view-ledger.js";

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

  it("keeps at most maxBytes of views, forgetting the oldest first", () => {
    const perView = VIEW_ENTRY_BYTES;
    const ledger = viewLedger(3 * perView);
    for (const id of [1, 2, 3]) ledger.firstToday(id, "v", "2026-11-22");
    expect(ledger.bytes).toBe(3 * perView);
    expect(ledger.firstToday(4, "v", "2026-11-22")).toBe(true); // forgets item 1
    expect(ledger.bytes).toBe(3 * perView);
    expect(ledger.firstToday(2, "v", "2026-11-22")).toBe(false);
    expect(ledger.firstToday(1, "v", "2026-11-22")).toBe(true);
  });

  it("forgets the day before's views before today's, and a dropped day's bytes", () => {
    const perView = VIEW_ENTRY_BYTES;
    const ledger = viewLedger(3 * perView);
    ledger.firstToday(1, "v", "2026-11-22");
    ledger.firstToday(2, "v", "2026-11-22");
    ledger.firstToday(1, "v", "2026-11-23");
    ledger.firstToday(2, "v", "2026-11-23"); // over: the 22nd's item 1 goes, not the 23rd's
    expect(ledger.firstToday(1, "v", "2026-11-23")).toBe(false);
    expect(ledger.firstToday(2, "v", "2026-11-22")).toBe(false);
    expect(ledger.bytes).toBe(3 * perView);
    ledger.firstToday(3, "v", "2026-11-24"); // the 22nd is dropped whole
    expect(ledger.bytes).toBe(3 * perView);
  });

  it("tells 200,000 views of one day apart (visitors alike but for a character, items alike but for one)", () => {
    const ledger = viewLedger(200_000 * VIEW_ENTRY_BYTES);
    const keys = new Set<number>();
    let firsts = 0;
    for (let i = 0; i < 100_000; i++) {
      const visitor = `v${i.toString(36).padStart(8, "0")}`;
      for (const item of [i % 1000, (i % 1000) + 1]) {
        if (ledger.firstToday(item, visitor, "2026-11-22")) firsts++;
        keys.add(viewKey(item, visitor));
      }
    }
    expect(firsts).toBe(200_000);
    expect(keys.size).toBe(200_000);
    expect(ledger.firstToday(0, "v00000000", "2026-11-22")).toBe(false);
    // A key is a whole number a Set keeps as a number, within 53 bits.
    expect(Number.isSafeInteger(viewKey(123, "x"))).toBe(true);
  });

  it("stays within its bytes under many visitors", () => {
    const ledger = viewLedger(64 * 1024);
    for (let i = 0; i < 20_000; i++) ledger.firstToday(i % 500, `visitor-${i}`, "2026-11-22");
    expect(ledger.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(ledger.bytes).toBeGreaterThan(60 * 1024);
  });
});
