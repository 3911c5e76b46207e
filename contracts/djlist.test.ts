import { describe, expect, it } from "vitest";
import { djListProblem, formatTrackTime, parseTrackTime, sortDjList } from "./djlist";

describe("djlist rules (server and the back office's editor)", () => {
  it("accepts a tree in the public order with times that increase", () => {
    const tree = [
      { label: "2 开场", start: 0 },
      { label: "10 尾声", start: 3000 },
      { label: "CD2", items: [{ label: "1", start: 3100 }, { label: "2 无时间" }, { label: "3", start: 3200 }] },
    ];
    // "10" after "2": numbers by value, as sortDjList (the public file tree) orders them.
    expect(sortDjList(tree)).toEqual(tree);
    expect(djListProblem(tree, 3600)).toBeNull();
    expect(djListProblem([])).toBeNull();
  });

  it("names the node at fault and why", () => {
    expect(djListProblem([{ label: "b" }, { label: "a" }])).toEqual({ path: [1], message: "「a」应排在「b」之前：前台按名称排序（数字按大小）" });
    expect(djListProblem([{ label: "A", items: [{ label: "1", start: 50 }, { label: "2", start: 50 }] }])).toEqual({
      path: [0, 1],
      message: "「2」的开始时间应晚于「1」",
    });
    expect(djListProblem([{ label: "1", start: 100 }], 100)?.message).toBe("「1」的开始时间超过了媒体时长");
    expect(djListProblem([{ label: "1", start: Number.NaN }])?.message).toBe("「1」的开始时间无效，请按 分:秒 填写");
    expect(djListProblem([{ label: "1", start: 1.5 }])?.message).toBe("「1」的开始时间无效，请按 分:秒 填写");
    expect(djListProblem([{ label: "空", items: [] }])?.message).toBe("文件夹「空」是空的");
    const deep = { label: "a", items: [{ label: "b", items: [{ label: "c", items: [{ label: "d", items: [{ label: "e" }] }] }] }] };
    expect(djListProblem([deep])?.message).toBe("文件夹最多嵌套 4 层");
    const many = Array.from({ length: 2001 }, (_, i) => ({ label: String(i + 1) }));
    expect(djListProblem(many)?.message).toBe("文件列表最多 2000 项");
  });

  it("reads and writes track times as 分:秒 or 时:分:秒", () => {
    expect(parseTrackTime("")).toBeUndefined();
    expect(parseTrackTime("3:05")).toBe(185);
    expect(parseTrackTime("75:00")).toBe(4500);
    expect(parseTrackTime("1:02:05")).toBe(3725);
    for (const bad of ["3:5", "1:60", "abc", "1:75:00", "-1:00"]) expect(parseTrackTime(bad), bad).toBeNull();
    expect(formatTrackTime(185)).toBe("3:05");
    expect(formatTrackTime(3725)).toBe("1:02:05");
  });
});
