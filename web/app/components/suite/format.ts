/** 65 → "1:05", 3725 → "1:02:05". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** China has kept UTC+8 all year since 1991 (no daylight saving time). */
const CHINA_OFFSET_SECONDS = 8 * 3600;

// Plain arithmetic: Intl's formatToParts, one call per list row, was ~25 ms of hydrating the
// home page in the browser (and building a formatter per row a tenth of its server rendering).
const chinaDayParts = (unixSeconds: number) => {
  const at = new Date((unixSeconds + CHINA_OFFSET_SECONDS) * 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    year: String(at.getUTCFullYear()),
    month: two(at.getUTCMonth() + 1),
    day: two(at.getUTCDate()),
    time: `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`,
  };
};

/** Unix seconds → "2026年11月22日" (China time, as the site's audience reads it). */
export function formatChinaDate(unixSeconds: number): string {
  const { year, month, day } = chinaDayParts(unixSeconds);
  return `${year}年${month}月${day}日`;
}

/** Unix seconds → "2026年11月22日 08:05:09" (China time; download records, spec section 3). */
export function formatChinaDateTime(unixSeconds: number): string {
  const { year, month, day, time } = chinaDayParts(unixSeconds);
  return `${year}年${month}月${day}日 ${time}`;
}

/** Unix seconds → "11-22" (China time), for compact lists. */
export function formatMonthDay(unixSeconds: number): string {
  const { month, day } = chinaDayParts(unixSeconds);
  return `${month}-${day}`;
}

/** 12345 → "1.2万" as Chinese sites show large counts. */
export function formatCount(n: number): string {
  return n >= 10_000 ? `${(n / 10_000).toFixed(1).replace(/\.0$/, "")}万` : String(n);
}
