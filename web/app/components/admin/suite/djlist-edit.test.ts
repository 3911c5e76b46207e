import { describe, expect, it } from "vitest";
import { addNode, fromEditable, moveNode, newFolder, newTrack, problemOf, removeNode, sortEditable, toEditable, updateNode } from "./djlist-edit";

describe("the djlist editor's tree operations", () => {
  it("round-trips the stored tree, times as 分:秒", () => {
    const stored = [{ label: "1 开场", start: 0 }, { label: "CD2", icon: "folder", items: [{ label: "a", icon: "music", start: 185 }, { label: "b" }] }];
    const edit = toEditable(stored);
    expect(edit[1].children[0].time).toBe("3:05");
    expect(fromEditable(edit)).toEqual(stored);
    // New nodes carry the seeded icons.
    expect(fromEditable([newFolder("F"), newTrack("t")])).toEqual([{ label: "F", icon: "folder", items: [] }, { label: "t", icon: "music" }]);
  });

  it("accepts the stored tree unchanged, even out of the rules; any change is checked", () => {
    const stored = [{ label: "b", start: 10 }, { label: "a", start: 0 }];
    const edit = toEditable(stored);
    expect(problemOf(edit, null, stored)).toBeNull();
    expect(problemOf(edit)?.message).toBe("「a」应排在「b」之前：前台按名称排序（数字按大小）");
    expect(problemOf(updateNode(edit, edit[0].key, { time: "0:11" }), null, stored)).not.toBeNull();
  });

  it("adds, edits, moves and removes nodes; a mistyped time is a problem", () => {
    let tree = addNode([], null, newTrack("2"));
    tree = addNode(tree, null, newTrack("1"));
    const folder = newFolder("CD");
    tree = addNode(tree, null, folder);
    tree = addNode(tree, folder.key, newTrack("x"));
    expect(problemOf(tree)?.message).toBe("「1」应排在「2」之前：前台按名称排序（数字按大小）");
    tree = moveNode(tree, tree[1].key, -1);
    expect(tree.map((n) => n.label)).toEqual(["1", "2", "CD"]);
    expect(problemOf(tree)).toBeNull();
    tree = updateNode(tree, tree[2].children[0].key, { time: "9:7" });
    expect(problemOf(tree)?.message).toBe("「x」的开始时间无效，请按 分:秒 填写");
    tree = removeNode(tree, tree[2].children[0].key);
    expect(problemOf(tree)?.message).toBe("文件夹「CD」是空的");
  });

  it("sorts every level into the public order, keeping each node", () => {
    const tree = toEditable([{ label: "10" }, { label: "B", items: [{ label: "2" }, { label: "1" }] }, { label: "2" }]);
    const sorted = sortEditable(tree);
    expect(fromEditable(sorted)).toEqual([{ label: "2" }, { label: "10" }, { label: "B", items: [{ label: "1" }, { label: "2" }] }]);
    expect(sorted[2].key).toBe(tree[1].key);
  });
});
