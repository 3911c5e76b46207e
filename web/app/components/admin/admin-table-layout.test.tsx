import type { ColumnsType } from "antd/es/table/interface";
import { describe, expect, it } from "vitest";
import { batchLabel, FLEX_COLUMN_MIN, layoutColumns } from "./AdminTable";
import { columnKey } from "./table-settings";

interface Row {
  id: number;
  title: string;
}

const columns: ColumnsType<Row> = [
  { title: "ID", dataIndex: "id", key: "id", width: 90 },
  { title: "标题", dataIndex: "title", key: "title", ellipsis: true },
  { title: "分类", dataIndex: "channel" },
  { title: "操作", key: "actions", width: 200 },
];

describe("the admin table's columns on a narrow screen (issue 25)", () => {
  it("gives a column without a width its least width and scrolls at the sum of them all", () => {
    const { columns: shown, x } = layoutColumns(columns, [], false);
    expect(shown.map((c) => c.minWidth)).toEqual([undefined, FLEX_COLUMN_MIN, FLEX_COLUMN_MIN, undefined]);
    expect(x).toBe(90 + FLEX_COLUMN_MIN + FLEX_COLUMN_MIN + 200);
    // The 标题 column keeps at least 160 px at any window width.
    expect(FLEX_COLUMN_MIN).toBeGreaterThanOrEqual(160);
  });

  it("fixes the row actions on the right, unless the screen placed them itself or is a phone's", () => {
    const { columns: shown } = layoutColumns(columns, [], false);
    expect(shown.map((c) => c.fixed)).toEqual([undefined, undefined, undefined, "right"]);
    const own = layoutColumns([{ ...columns[3]!, fixed: false }], [], false);
    expect(own.columns[0]!.fixed).toBe(false);
    // On a phone they scroll with the row rather than cover the 标题.
    expect(layoutColumns(columns, [], false, false).columns.map((c) => c.fixed)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("leaves out hidden columns (by key, else dataIndex) and counts the selection column", () => {
    const { columns: shown, x } = layoutColumns(columns, ["channel", "id"], true);
    expect(shown.map((c, i) => columnKey(c as ColumnsType<never>[number], i))).toEqual(["title", "actions"]);
    expect(x).toBe(48 + FLEX_COLUMN_MIN + 200);
  });

  it("a batch button says how many rows it acts on", () => {
    expect(batchLabel("批量删除", 0)).toBe("批量删除");
    expect(batchLabel("批量删除", 3)).toBe("批量删除 (3)");
  });
});
