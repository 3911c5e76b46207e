import type { DjListNode } from "../schema/index.js";
import { SONGS } from "./names.js";
import type { Rng } from "./prng.js";

export interface BuiltDjList {
  tree: DjListNode[];
  leaves: number;
}

/**
 * A suite's file tree in one of three shapes seen on DJ sites: a flat tracklist, CD folders,
 * or halves with nested sections. Leaf labels are numbered without zero padding so the
 * detail page's Chinese-locale numeric sort is exercised (2 before 10). When `timed`, leaves
 * carry `start` offsets spread evenly over the media's real duration, so the player can seek
 * to each track.
 */
export function buildDjList(rng: Rng, durationSec: number, { timed, tracks }: { timed: boolean; tracks: number }): BuiltDjList {
  const labels = Array.from({ length: tracks }, (_, k) => {
    const s = rng.pick(SONGS);
    return `${k + 1}. ${s.artist} - ${s.song}`;
  });
  const leaves: DjListNode[] = labels.map((label, k) => ({
    label,
    icon: "music",
    ...(timed ? { start: Math.floor((k * durationSec) / tracks) } : {}),
  }));
  const folder = (label: string, items: DjListNode[]): DjListNode => ({ label, icon: "folder", items });
  const half = Math.ceil(tracks / 2);

  const shape = rng.pick(["flat", "cds", "nested"] as const);
  if (shape === "flat") return { tree: leaves, leaves: tracks };
  if (shape === "cds") {
    return { tree: [folder("CD1", leaves.slice(0, half)), folder("CD2", leaves.slice(half))], leaves: tracks };
  }
  const opening = Math.min(2, half);
  return {
    tree: [
      folder("上半场", [folder("开场", leaves.slice(0, opening)), ...leaves.slice(opening, half)]),
      folder("下半场", [...leaves.slice(half, tracks - 1), folder("收尾", leaves.slice(tracks - 1))]),
    ],
    leaves: tracks,
  };
}

/**
 * The hour-long demo mix: one leaf per track with its start. `starts` are the real track
 * boundaries of the generated file when the media preparation reports them; otherwise 15
 * evenly spaced tracks (about 4 minutes each).
 */
export function buildLongMixList(durationSec: number, starts?: number[]): BuiltDjList {
  const offsets = starts?.length ? starts : Array.from({ length: 15 }, (_, k) => (k * durationSec) / 15);
  const leaves = offsets.map((start, k) => {
    const s = SONGS[(k * 7) % SONGS.length];
    return { label: `${k + 1}. ${s.artist} - ${s.song}`, icon: "music", start: Math.floor(start) };
  });
  const half = Math.ceil(leaves.length / 2);
  return {
    tree: [
      { label: "CD1", icon: "folder", items: leaves.slice(0, half) },
      { label: "CD2", icon: "folder", items: leaves.slice(half) },
    ],
    leaves: leaves.length,
  };
}
