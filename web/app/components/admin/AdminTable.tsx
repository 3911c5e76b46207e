import { ReloadOutlined } from "@ant-design/icons";
import { ADMIN_TABLE_PAGE_SIZE, ADMIN_TABLE_PAGE_SIZES } from "@contracts/admin-table-texts";
import { Button, Grid, Input, Table, type TableProps } from "antd";
import type { ColumnsType, SorterResult } from "antd/es/table/interface";
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode } from "react";
import { useTablePage } from "./admin-table-data";
import { AdminToolbar } from "./AdminToolbar";
import { ColumnSettings, columnKey, DensityMenu, useTableSettings } from "./table-settings";
import styles from "./admin-table.module.css";

/**
 * The least a column without a width gets (the 标题 of a suite stays readable at 768 px): the
 * table is then at least as wide as its columns and scrolls inside itself, never the page.
 */
export const FLEX_COLUMN_MIN = 180;
/** antd's selection column (checkbox and its padding). */
const SELECTION_COLUMN = 48;

/**
 * The columns as shown: the operator's hidden ones left out, a flexible column given its
 * least width, the row actions (key `actions`) fixed on the right unless the screen is a
 * phone's (there they would cover every other column); and the width the table scrolls at
 * (antd shares what is left over between the flexible columns).
 */
export function layoutColumns<Row>(columns: ColumnsType<Row>, hidden: string[], selectable: boolean, fixActions = true): { columns: ColumnsType<Row>; x: number } {
  let x = selectable ? SELECTION_COLUMN : 0;
  const shown = columns
    .map((column, i) => ({ column, key: columnKey(column as ColumnsType<never>[number], i) }))
    .filter(({ key }) => !hidden.includes(key))
    .map(({ column, key }) => {
      const flexible = typeof column.width !== "number";
      x += flexible ? Math.max(column.minWidth ?? 0, FLEX_COLUMN_MIN) : (column.width as number);
      return {
        ...column,
        ...(flexible ? { minWidth: Math.max(column.minWidth ?? 0, FLEX_COLUMN_MIN) } : {}),
        ...(fixActions && key === "actions" && column.fixed === undefined ? { fixed: "right" as const } : {}),
      };
    });
  return { columns: shown, x };
}

/**
 * The back office's one table layer (issue 12; ProComponents does not support antd 6): server
 * paging (page sizes 10/20/50/100), keyword search, sorting, row selection for batch actions
 * with a 已选择 N 项 bar, a refresh button, the operator's columns and density (kept in
 * localStorage), a table that scrolls inside itself on a narrow screen, and the 获取数据失败 message, over a table API in ADMIN-API.md's conventions
 * (`search`, `filter`/`op` JSON strings, `sort`, `order`, `offset`, `limit` → `{total, rows}`).
 * Every admin screen's list is one of these: a screen only says its columns and actions. A
 * short list its screen loads whole (来源管理, 来源插件) comes as `rows` instead of `api`: the same
 * toolbar, selection and settings, unpaged (ADR 0078).
 */

export interface AdminTableHandle {
  /** Loads the current page again (after an edit or a delete). */
  reload(): void;
  /** Clears the selection (after a batch action). */
  clearSelection(): void;
  /** The query shown now without its paging (keyword, filters, sort): what an export of the table takes. */
  query(): Record<string, string | number | undefined>;
}

/** Where the rows come from: a table API the table pages through, or the screen's own list. */
type AdminTableRows<Row> =
  | {
      /** GET path of the table API. */
      api: string;
      rows?: never;
      loading?: never;
      onReload?: never;
    }
  | {
      api?: never;
      /** Every row, loaded by the screen (a short list): shown unpaged, without a keyword box. */
      rows: Row[];
      loading: boolean;
      /** What 刷新 and `reload()` do. */
      onReload: () => void;
    };

export type AdminTableProps<Row extends { id: number | string }> = AdminTableRows<Row> & {
  columns: ColumnsType<Row>;
  /** Placeholder of the keyword box; none = no keyword box. */
  searchPlaceholder?: string;
  /** Column filters in FastAdmin's form: `{channel_id: "51,115"}` with `{channel_id: "IN"}`. */
  filter?: Record<string, string>;
  op?: Record<string, string>;
  /** Other query parameters of this table (a status shortcut…); a change reloads from page 1. */
  params?: Record<string, string | number | undefined>;
  /** The screen's own filters (状态, 管理员, a date range…): before the buttons, on a phone a block that wraps. */
  filters?: ReactNode;
  /** Buttons before the refresh button (添加…); gets the current selection. */
  toolbar?: (selection: { ids: Row["id"][]; rows: Row[] }) => ReactNode;
  /** More buttons of a screen (导出, 回收站…), on the right beside the table settings. */
  toolbarExtra?: (selection: { ids: Row["id"][]; rows: Row[] }) => ReactNode;
  /** Rows can be selected (for batch actions in the toolbar). */
  selectable?: boolean;
  /** A row no batch action applies to (本站 among the sources): its checkbox is disabled. */
  canSelect?: (row: Row) => boolean;
  /** Extra props for antd's Table (scroll, expandable…). */
  tableProps?: Omit<TableProps<Row>, "columns" | "dataSource" | "pagination" | "rowSelection" | "onChange" | "loading" | "rowKey">;
  /** A test id for the table block; also names the operator's column and density choice. */
  testId?: string;
};

function AdminTableInner<Row extends { id: number | string }>(props: AdminTableProps<Row>, ref: React.ForwardedRef<AdminTableHandle>) {
  const { api, columns, searchPlaceholder, filter, op, params, filters, toolbar, toolbarExtra, selectable, canSelect, tableProps, testId } = props;
  const local = props.rows !== undefined;
  const [settings, setSettings] = useTableSettings(testId ?? api ?? "table");
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(ADMIN_TABLE_PAGE_SIZE);
  const [sort, setSort] = useState<{ field?: string; order?: "asc" | "desc" }>({});
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Row["id"][]>([]);
  const [version, setVersion] = useState(0);

  const filterText = filter && Object.keys(filter).length > 0 ? JSON.stringify(filter) : undefined;
  const opText = op && Object.keys(op).length > 0 ? JSON.stringify(op) : undefined;
  const paramsText = JSON.stringify(params ?? {});

  // A new search, filter or parameter starts again at page 1.
  useEffect(() => setPage(1), [search, filterText, opText, paramsText]);

  const served = useTablePage<Row>(api, { params: paramsText, search, filter: filterText, op: opText, sort: sort.field, order: sort.order, page, pageSize }, version);
  const rows = local ? props.rows! : served.rows;
  const loading = local ? props.loading! : served.loading;
  const onReload = useRef(props.onReload);
  onReload.current = props.onReload;
  const reload = useCallback(() => (onReload.current ? onReload.current() : setVersion((v) => v + 1)), []);

  const currentQuery = useRef<Record<string, string | number | undefined>>({});
  currentQuery.current = { ...(JSON.parse(paramsText) as Record<string, string | number | undefined>), search: search || undefined, filter: filterText, op: opText, sort: sort.field, order: sort.order };
  useImperativeHandle(ref, () => ({ reload, clearSelection: () => setSelected([]), query: () => currentQuery.current }), [reload]);

  const onChange: TableProps<Row>["onChange"] = (pagination, _filters, sorter) => {
    if (local) return; // antd sorts a local list by the columns' own sorters
    const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
    const field = one?.order ? String(one.columnKey ?? one.field ?? "") || undefined : undefined;
    setSort(field ? { field, order: one?.order === "ascend" ? "asc" : "desc" } : {});
    if (pagination.pageSize && pagination.pageSize !== pageSize) {
      setPageSize(pagination.pageSize);
      setPage(1);
    } else setPage(pagination.current ?? 1);
  };

  // A local list may lose a selected row on reload (a source deleted): only rows shown count.
  const ids = local ? selected.filter((id) => rows.some((row) => row.id === id)) : selected;
  const selection = { ids, rows: rows.filter((row) => ids.includes(row.id)) };
  // Under 576 px (antd's sm) the actions scroll with the row: fixed, they would hide the 标题.
  const phone = Grid.useBreakpoint().sm === false;
  const shown = useMemo(() => layoutColumns(columns, settings.hidden, selectable === true, !phone), [columns, settings.hidden, selectable, phone]);
  return (
    <div className={styles.block} data-testid={testId}>
      <AdminToolbar
        phone={phone}
        filters={filters}
        actions={
          <>
            {toolbar?.(selection)}
            <Button icon={<ReloadOutlined />} onClick={reload} aria-label="刷新">
              刷新
            </Button>
          </>
        }
        extra={toolbarExtra?.(selection)}
        search={
          searchPlaceholder && !local ? (
            <Input.Search allowClear placeholder={searchPlaceholder} onSearch={(value) => setSearch(value.trim())} className={styles.search} enterButton="搜索" />
          ) : null
        }
        settings={
          <>
            <DensityMenu density={settings.density} onChange={(density) => setSettings({ density })} />
            <ColumnSettings columns={columns} hidden={settings.hidden} onChange={(hidden) => setSettings({ hidden })} />
          </>
        }
      />
      {ids.length > 0 ? (
        <div className={styles.selectionBar} role="status" data-testid="selection-bar">
          <span>
            已选择 <b>{ids.length}</b> 项
          </span>
          <span aria-hidden="true">·</span>
          <Button type="link" size="small" onClick={() => setSelected([])}>
            清空
          </Button>
        </div>
      ) : null}
      <Table<Row>
        {...tableProps}
        rowKey="id"
        size={settings.density}
        columns={shown.columns}
        // The table scrolls inside itself; the page never does (issue 25).
        scroll={{ ...tableProps?.scroll, x: shown.x }}
        dataSource={rows}
        loading={loading}
        onChange={onChange}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: ids,
                onChange: (keys) => setSelected(keys as Row["id"][]),
                preserveSelectedRowKeys: false,
                ...(canSelect ? { getCheckboxProps: (row: Row) => ({ disabled: !canSelect(row) }) } : {}),
              }
            : undefined
        }
        pagination={
          local
            ? false
            : {
                current: page,
                pageSize,
                total: served.total,
                showSizeChanger: true,
                pageSizeOptions: ADMIN_TABLE_PAGE_SIZES.map(String),
                // A capped total (a broad keyword) reads 共 500+ 条.
                showTotal: (count) => `共 ${count}${served.capped ? "+" : ""} 条`,
              }
        }
      />
    </div>
  );
}

/** A batch button's label with the number of selected rows: 批量删除 (3). */
export const batchLabel = (label: string, count: number) => (count > 0 ? `${label} (${count})` : label);

/** See AdminTableProps; `ref` gives `reload()`, `clearSelection()` and `query()`. */
export const AdminTable = forwardRef(AdminTableInner) as <Row extends { id: number | string }>(
  props: AdminTableProps<Row> & { ref?: React.Ref<AdminTableHandle> },
) => ReturnType<typeof AdminTableInner>;
