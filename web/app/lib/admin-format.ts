/**
 * Times in the back office: the site's time (China, UTC+8) whatever the browser's zone, as the
 * server's filters read them (server/http/admin-table.ts).
 */
const CHINA_OFFSET_S = 8 * 3600;
const pad = (n: number) => String(n).padStart(2, "0");

/** `Y-m-d H:i:s` of Unix seconds; "" for none. */
export function formatTime(unix: number | null | undefined): string {
  if (unix === null || unix === undefined) return "";
  const d = new Date((unix + CHINA_OFFSET_S) * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `Y-m-d` of Unix seconds (a date input's value); "" for none. */
export function dateOf(unix: number | null | undefined): string {
  return formatTime(unix).slice(0, 10);
}

/** The end of a `Y-m-d` day (23:59:59 in China) as Unix seconds; null for "". */
export function endOfDay(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(date.trim());
  if (!m) return null;
  return Math.floor(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, 23, 59, 59) / 1000) - CHINA_OFFSET_S;
}
