/** Display helpers of the dashboard (China time, sizes, durations). */
import { formatAdminTime } from "../admin-time";

/** An ISO time as the back office writes times: "2026-06-15 10:00:00", China time, whatever the browser's zone. */
export function chinaTime(iso: string): string {
  return formatAdminTime(Date.parse(iso) / 1000);
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

export function formatUptime(sec: number): string {
  const d = Math.floor(sec / 86_400);
  const h = Math.floor((sec % 86_400) / 3_600);
  const m = Math.floor((sec % 3_600) / 60);
  if (d > 0) return `${d} 天 ${h} 小时 ${m} 分`;
  if (h > 0) return `${h} 小时 ${m} 分`;
  return `${m} 分 ${sec % 60} 秒`;
}

/** Today against yesterday: "+3", "-2", "持平", and the share when yesterday had any. */
export function change(today: number, yesterday: number): { text: string; trend: "up" | "down" | "flat" } {
  const diff = today - yesterday;
  if (diff === 0) return { text: "持平", trend: "flat" };
  const share = yesterday > 0 ? ` (${diff > 0 ? "+" : ""}${Math.round((diff / yesterday) * 100)}%)` : "";
  return { text: `${diff > 0 ? "+" : ""}${diff}${share}`, trend: diff > 0 ? "up" : "down" };
}
