import { describe, expect, it } from "vitest";
import { formatChinaDate, formatChinaDateTime, formatCount, formatDuration, formatMonthDay } from "./format";

describe("detail page formats", () => {
  it("durations", () => {
    expect(formatDuration(65)).toBe("1:05");
    expect(formatDuration(3725)).toBe("1:02:05");
    expect(formatDuration(-3)).toBe("0:00");
  });
  it("dates in China time", () => {
    expect(formatChinaDate(Date.UTC(2026, 10, 21, 16, 30) / 1000)).toBe("2026年11月22日");
    expect(formatMonthDay(Date.UTC(2026, 10, 21, 16, 30) / 1000)).toBe("11-22");
    // The same days as Intl's Asia/Shanghai, across years, month ends and midnights.
    const intl = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" });
    for (let t = Date.UTC(1995, 0, 1) / 1000; t < Date.UTC(2031, 0, 1) / 1000; t += 86_400 * 37 + 3_607) {
      const [y, m, d] = intl.format(new Date(t * 1000)).split("-");
      expect(formatChinaDate(t), String(t)).toBe(`${y}年${m}月${d}日`);
    }
  });
  it("date and time in China time (download records)", () => {
    expect(formatChinaDateTime(Date.UTC(2026, 10, 21, 16, 5, 9) / 1000)).toBe("2026年11月22日 00:05:09");
    expect(formatChinaDateTime(Date.UTC(2026, 0, 1, 3, 4, 5) / 1000)).toBe("2026年01月01日 11:04:05");
    const intl = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Shanghai", hour12: false, hour: "2-digit", minute: "2-digit", second: "2-digit" });
    for (let t = Date.UTC(2020, 0, 1) / 1000; t < Date.UTC(2027, 0, 1) / 1000; t += 86_400 * 13 + 3_671) {
      expect(formatChinaDateTime(t).slice(-8), String(t)).toBe(intl.format(new Date(t * 1000)));
    }
  });
  it("counts", () => {
    expect(formatCount(999)).toBe("999");
    expect(formatCount(12_345)).toBe("1.2万");
    expect(formatCount(20_000)).toBe("2万");
  });
});
