// No zod here: the back office's djlist editor (browser code) imports this.

/** One node of a suite's file tree (spec: label, icon, items; a node without items is a leaf). */
export interface DjListNode {
  label: string;
  icon?: string;
  items?: DjListNode[];
  /** Offset of this track in the item's media, in seconds, when known (player tracklist). */
  start?: number;
}

const byLabel = new Intl.Collator("zh-CN", { numeric: true }).compare;

/** The spec's ordering: by label, Chinese locale, numeric ("2" before "10"), at every level. */
export function sortDjList(nodes: readonly DjListNode[]): DjListNode[] {
  return [...nodes]
    .sort((a, b) => byLabel(a.label, b.label))
    .map((n) => (n.items ? { ...n, items: sortDjList(n.items) } : n));
}

/** Leaves are the audio files. */
export function countAudioFiles(nodes: readonly DjListNode[]): number {
  return nodes.reduce((sum, n) => sum + (n.items ? countAudioFiles(n.items) : 1), 0);
}

export const DJLIST_MAX_NODES = 2000;
export const DJLIST_MAX_DEPTH = 4;
export const DJLIST_LABEL_MAX = 200;
/** Ten hours: longer than any mix we carry. */
export const TRACK_START_MAX = 36_000;

export const djListMessages = {
  emptyLabel: "曲目或文件夹名称不能为空",
  labelTooLong: `名称不能超过 ${DJLIST_LABEL_MAX} 个字`,
  tooMany: `文件列表最多 ${DJLIST_MAX_NODES} 项`,
  tooDeep: `文件夹最多嵌套 ${DJLIST_MAX_DEPTH} 层`,
  emptyFolder: (label: string) => `文件夹「${label}」是空的`,
  badTime: (label: string) => `「${label}」的开始时间无效，请按 分:秒 填写`,
  order: (before: string, after: string) => `「${after}」应排在「${before}」之前：前台按名称排序（数字按大小）`,
  timeOrder: (before: string, after: string) => `「${after}」的开始时间应晚于「${before}」`,
  pastEnd: (label: string) => `「${label}」的开始时间超过了媒体时长`,
} as const;

export interface DjListProblem {
  /** Index path of the node at fault ([2, 0] = first child of the third top-level node). */
  path: number[];
  message: string;
}

/**
 * Why a tree cannot be saved, or null. The public page shows siblings sorted by label
 * (sortDjList) and the player seeks by start time, so the tree must already be in that order
 * and its timed tracks must start later and later in it: what the editor shows is what visitors
 * see, and the tracklist plays top to bottom. `durationSec`, when known, bounds the times.
 */
export function djListProblem(nodes: readonly DjListNode[], durationSec?: number | null): DjListProblem | null {
  let count = 0;
  let lastTimed: { label: string; start: number } | null = null;
  const walk = (list: readonly DjListNode[], at: number[]): DjListProblem | null => {
    if (at.length >= DJLIST_MAX_DEPTH) return { path: at, message: djListMessages.tooDeep };
    for (let i = 0; i < list.length; i++) {
      const node = list[i];
      const path = [...at, i];
      if (++count > DJLIST_MAX_NODES) return { path, message: djListMessages.tooMany };
      const label = node.label.trim();
      if (!label) return { path, message: djListMessages.emptyLabel };
      if (label.length > DJLIST_LABEL_MAX) return { path, message: djListMessages.labelTooLong };
      if (i > 0 && byLabel(list[i - 1].label, node.label) > 0) {
        return { path, message: djListMessages.order(list[i - 1].label, node.label) };
      }
      if (node.items) {
        if (!node.items.length) return { path, message: djListMessages.emptyFolder(label) };
        const inner = walk(node.items, path);
        if (inner) return inner;
        continue;
      }
      if (node.start === undefined) continue;
      if (!Number.isInteger(node.start) || node.start < 0 || node.start > TRACK_START_MAX) {
        return { path, message: djListMessages.badTime(label) };
      }
      if (durationSec && node.start >= durationSec) return { path, message: djListMessages.pastEnd(label) };
      if (lastTimed && node.start <= lastTimed.start) return { path, message: djListMessages.timeOrder(lastTimed.label, label) };
      lastTimed = { label, start: node.start };
    }
    return null;
  };
  return walk(nodes, []);
}

/** The same tree (labels, icons, times, nesting), whatever order its keys were stored in. */
export function sameDjList(a: readonly DjListNode[] | null | undefined, b: readonly DjListNode[] | null | undefined): boolean {
  const canon = (list: readonly DjListNode[] | null | undefined): unknown =>
    (list ?? []).map((n) => [n.label, n.icon ?? null, n.start ?? null, n.items ? canon(n.items) : null]);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/** "3:05" → 185, "1:02:05" → 3725, "" → undefined (no time); null when it is not a time. */
export function parseTrackTime(text: string): number | undefined | null {
  const t = text.trim();
  if (!t) return undefined;
  const m = /^(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d)$/.exec(t);
  if (!m) return null;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (m[1] !== undefined && min > 59) return null;
  return h * 3600 + min * 60 + s;
}

/** 185 → "3:05", 3725 → "1:02:05". */
export function formatTrackTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
