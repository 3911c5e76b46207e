import { Cache } from "./cache.js";

// Built once: constructing an Intl.DateTimeFormat costs far more than formatting with it.
const CHINA_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" });
// Asked on every page view: formatted once a minute (days change on a minute's boundary).
// (A memo of a pure computation, not a cache of data: no event concerns it.)
export const byMinute = new Cache<string>({ name: "china-day", maxEntries: 2, maxBytes: 1024, sizeOf: (day) => day.length });

/** The calendar day in China, where the site's audience is: "once per visitor per day". */
export function chinaDay(at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  return byMinute.memo(String(minute), () => CHINA_DAY.format(at));
}
