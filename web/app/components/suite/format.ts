/** 65 → "1:05", 3725 → "1:02:05". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// One formatter for every call: building an Intl.DateTimeFormat costs far more than using one
// (it was a tenth of the home page's server rendering, one per list row).
let chinaDayFormat: Intl.DateTimeFormat | undefined;

const chinaDayParts = (unixSeconds: number) => {
  chinaDayFormat ??= new Intl.DateTimeFormat("zh-CN", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const parts = chinaDayFormat.formatToParts(new Date(unixSeconds * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { year: get("year"), month: get("month"), day: get("day") };
};

/** Unix seconds → "2026年11月22日" (China time, as the site's audience reads it). */
export function formatChinaDate(unixSeconds: number): string {
  const { year, month, day } = chinaDayParts(unixSeconds);
  return `${year}年${month}月${day}日`;
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
