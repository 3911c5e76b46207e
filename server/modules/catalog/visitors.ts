// The visitor cookie itself (signed ids, issued by us) lives in server/modules/visitors/ and is
// read one way, through server/http/visitor.ts.

// Built once: constructing an Intl.DateTimeFormat costs far more than formatting with it.
const CHINA_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" });

let lastDay = { minute: Number.NaN, day: "" };

/** The calendar day in China, where the site's audience is: "once per visitor per day". */
export function chinaDay(at: Date): string {
  // Asked on every page view: formatted once a minute (days change on a minute's boundary).
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== lastDay.minute) lastDay = { minute, day: CHINA_DAY.format(at) };
  return lastDay.day;
}
