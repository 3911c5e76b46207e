import { App, Button, Input } from "antd";
import type { ColumnsType } from "antd/es/table/interface";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AdminTable } from "./AdminTable";
import { AdminToolbar } from "./AdminToolbar";

interface Row {
  id: string;
  name: string;
  adapter: "builtin" | "none";
}

const columns: ColumnsType<Row> = [
  { title: "来源", dataIndex: "name", key: "name" },
  { title: "操作", key: "actions", width: 200 },
];
const rows: Row[] = [
  { id: "djuu", name: "DJUU", adapter: "builtin" },
  { id: "local", name: "本站", adapter: "none" },
];

const render = (node: React.ReactNode) => renderToString(<App>{node}</App>);
/** The table's rows by their key, each its markup. */
const rowsOf = (html: string) => [...html.matchAll(/<tr[^>]*data-row-key="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/gu)].map((m) => [m[1]!, m[2]!] as const);

describe("an admin table over rows its screen loaded (来源管理, 来源插件; ADR 0078)", () => {
  it("shows every row unpaged, with the toolbar, the settings and a checkbox per row", () => {
    const html = render(
      <AdminTable<Row>
        rows={rows}
        loading={false}
        onReload={() => {}}
        columns={columns}
        selectable
        searchPlaceholder="不该出现"
        testId="source-table"
        toolbar={({ ids }) => <Button>{`批量启用 ${ids.length}`}</Button>}
      />,
    );
    expect(html).toContain("DJUU");
    expect(html).toContain("本站");
    expect(html).toContain("批量启用 0");
    expect(html).toContain('aria-label="刷新"');
    expect(html).toContain('aria-label="列设置"');
    expect(html).toContain('aria-label="密度"');
    expect(html).not.toContain("ant-pagination");
    // A list loaded whole has no server to search: no keyword box.
    expect(html).not.toContain("不该出现");
    expect(rowsOf(html).map(([key, tr]) => [key, tr.includes("ant-checkbox-input")])).toEqual([
      ["djuu", true],
      ["local", true],
    ]);
  });

  it("disables the checkbox of a row no batch action applies to", () => {
    const html = render(<AdminTable<Row> rows={rows} loading={false} onReload={() => {}} columns={columns} selectable canSelect={(r) => r.adapter !== "none"} testId="t" />);
    expect(rowsOf(html).map(([key, tr]) => [key, /<input[^>]*ant-checkbox-input[^>]*disabled/u.test(tr)])).toEqual([
      ["djuu", false],
      ["local", true],
    ]);
  });
});

describe("the admin table's toolbar (ADR 0078)", () => {
  const parts = {
    actions: <Button>批量删除</Button>,
    extra: <Button>导出CSV</Button>,
    search: <Input.Search placeholder="关键词" />,
    settings: <Button aria-label="列设置" />,
  };

  it("on a desktop: the actions on the left, keyword, extra and settings on the right, as before", () => {
    const html = render(<AdminToolbar phone={false} {...parts} />);
    expect(html).not.toContain("admin-toolbar-phone");
    expect(html.indexOf("批量删除")).toBeLessThan(html.indexOf("关键词"));
    expect(html.indexOf("关键词")).toBeLessThan(html.indexOf("导出CSV"));
    expect(html.indexOf("导出CSV")).toBeLessThan(html.indexOf("列设置"));
  });

  it("on a phone: the keyword box first, then one scrolling line of actions and extra, the settings beside it", () => {
    const html = render(<AdminToolbar phone {...parts} />);
    const [before, row] = html.split('data-testid="admin-toolbar-actions"');
    expect(before).toContain("关键词");
    const [scrolling, after] = row!.split("列设置");
    expect(scrolling).toContain("批量删除");
    expect(scrolling).toContain("导出CSV");
    expect(after).toBeDefined();
    // Without a keyword box the actions' line is the whole toolbar.
    expect(render(<AdminToolbar phone actions={parts.actions} settings={parts.settings} />)).not.toContain("关键词");
  });
});
