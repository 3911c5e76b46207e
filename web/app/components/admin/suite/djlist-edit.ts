import { type DjListNode, djListProblem, type DjListProblem, formatTrackTime, parseTrackTime, sameDjList, sortDjList } from "@contracts/djlist";

/** A node of the editor: a stable key for React, the time as typed. */
export interface EditNode {
  key: string;
  label: string;
  /** "m:ss" or "h:mm:ss" as typed; "" for none. Folders have none. */
  time: string;
  folder: boolean;
  children: EditNode[];
  /** Kept as stored (the spec's node has one); new nodes get "music" or "folder" as seeded ones have. */
  icon?: string;
}

let seq = 0;
export const newKey = () => `n${++seq}`;

export const newTrack = (label = ""): EditNode => ({ key: newKey(), label, time: "", folder: false, children: [], icon: "music" });
export const newFolder = (label = ""): EditNode => ({ key: newKey(), label, time: "", folder: true, children: [], icon: "folder" });

export function toEditable(nodes: readonly DjListNode[]): EditNode[] {
  return nodes.map((n) => ({
    key: newKey(),
    label: n.label,
    time: n.start === undefined ? "" : formatTrackTime(n.start),
    folder: !!n.items,
    children: n.items ? toEditable(n.items) : [],
    ...(n.icon === undefined ? {} : { icon: n.icon }),
  }));
}

/** The stored tree. A time that does not parse becomes NaN, which djListProblem reports. */
export function fromEditable(nodes: readonly EditNode[]): DjListNode[] {
  return nodes.map((n) => {
    const head = { label: n.label.trim(), ...(n.icon === undefined ? {} : { icon: n.icon }) };
    if (n.folder) return { ...head, items: fromEditable(n.children) };
    const start = parseTrackTime(n.time);
    return start === undefined ? head : { ...head, start: start === null ? Number.NaN : start };
  });
}

/**
 * Why the tree cannot be saved, or null. `stored` (editing): the tree as saved, which the server
 * keeps without re-checking when it comes back unchanged (trees from before these rules).
 */
export function problemOf(nodes: readonly EditNode[], durationSec?: number | null, stored?: readonly DjListNode[]): DjListProblem | null {
  const tree = fromEditable(nodes);
  if (stored && sameDjList(tree, stored)) return null;
  return djListProblem(tree, durationSec);
}

/** The key of the node at an index path. */
export function keyAt(nodes: readonly EditNode[], path: readonly number[]): string | null {
  let list = nodes;
  let node: EditNode | undefined;
  for (const i of path) {
    node = list[i];
    if (!node) return null;
    list = node.children;
  }
  return node?.key ?? null;
}

/** A copy of the tree with `fn` applied to the sibling list that holds `key` (the top list for null). */
function editList(nodes: readonly EditNode[], parentKey: string | null, fn: (list: EditNode[]) => EditNode[]): EditNode[] {
  if (parentKey === null) return fn([...nodes]);
  return nodes.map((n) => (n.key === parentKey ? { ...n, children: fn([...n.children]) } : { ...n, children: editList(n.children, parentKey, fn) }));
}

function parentOf(nodes: readonly EditNode[], key: string, parent: string | null = null): string | null | undefined {
  for (const n of nodes) {
    if (n.key === key) return parent;
    const found = parentOf(n.children, key, n.key);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function updateNode(nodes: readonly EditNode[], key: string, patch: Partial<Pick<EditNode, "label" | "time">>): EditNode[] {
  return nodes.map((n) => (n.key === key ? { ...n, ...patch } : { ...n, children: updateNode(n.children, key, patch) }));
}

export function removeNode(nodes: readonly EditNode[], key: string): EditNode[] {
  return nodes.filter((n) => n.key !== key).map((n) => ({ ...n, children: removeNode(n.children, key) }));
}

/** Adds `node` at the end of the folder `parentKey` (the top level for null). */
export function addNode(nodes: readonly EditNode[], parentKey: string | null, node: EditNode): EditNode[] {
  return editList(nodes, parentKey, (list) => [...list, node]);
}

/** Moves a node one place up (-1) or down (+1) among its siblings. */
export function moveNode(nodes: readonly EditNode[], key: string, by: -1 | 1): EditNode[] {
  const parent = parentOf(nodes, key);
  if (parent === undefined) return [...nodes];
  return editList(nodes, parent, (list) => {
    const i = list.findIndex((n) => n.key === key);
    const j = i + by;
    if (i < 0 || j < 0 || j >= list.length) return list;
    [list[i], list[j]] = [list[j], list[i]];
    return list;
  });
}

/** Every level in the public page's order (by label, Chinese locale, numbers by value). */
export function sortEditable(nodes: readonly EditNode[]): EditNode[] {
  const byKey = new Map<string, EditNode>();
  const index = (list: readonly EditNode[]) => list.forEach((n) => (byKey.set(n.key, n), index(n.children)));
  index(nodes);
  // sortDjList sorts the stored shape; carry each node's key in its icon slot and map back.
  const keyed = (list: readonly EditNode[]): DjListNode[] =>
    list.map((n) => ({ label: n.label, icon: n.key, ...(n.folder ? { items: keyed(n.children) } : {}) }));
  // (The node's own icon is not lost: `back` returns the indexed node itself.)
  const back = (list: readonly DjListNode[]): EditNode[] =>
    list.map((s) => {
      const n = byKey.get(s.icon!)!;
      return { ...n, children: s.items ? back(s.items) : [] };
    });
  return back(sortDjList(keyed(nodes)));
}

export function countNodes(nodes: readonly EditNode[]): number {
  return nodes.reduce((sum, n) => sum + 1 + countNodes(n.children), 0);
}
