import { ColumnHeightOutlined, SettingOutlined } from "@ant-design/icons";
import { Button, Checkbox, Dropdown, Popover } from "antd";
import type { ColumnsType } from "antd/es/table/interface";
import { useCallback, useState } from "react";
import styles from "./admin-table.module.css";

/** antd Table sizes as the operator's 密度 menu names them (Ant Design Pro's three). */
export const DENSITIES = [
  { key: "large", label: "默认" },
  { key: "middle", label: "中等" },
  { key: "small", label: "紧凑" },
] as const;
export type Density = (typeof DENSITIES)[number]["key"];

export interface TableSettings {
  /** Keys of the columns the operator hid. */
  hidden: string[];
  density: Density;
}

const DEFAULTS: TableSettings = { hidden: [], density: "large" };
const STORAGE_PREFIX = "admin_table:";

/** A column's key as the settings name it: `key`, else its `dataIndex`, else its place. */
export function columnKey(column: ColumnsType<never>[number], index: number): string {
  const dataIndex = "dataIndex" in column ? column.dataIndex : undefined;
  return String(column.key ?? (Array.isArray(dataIndex) ? dataIndex.join(".") : dataIndex) ?? index);
}

function read(id: string): TableSettings {
  try {
    const raw = JSON.parse(window.localStorage.getItem(STORAGE_PREFIX + id) ?? "null") as Partial<TableSettings> | null;
    const hidden = Array.isArray(raw?.hidden) ? raw.hidden.filter((k): k is string => typeof k === "string") : [];
    const density = DENSITIES.some((d) => d.key === raw?.density) ? (raw!.density as Density) : DEFAULTS.density;
    return { hidden, density };
  } catch {
    // No storage (private mode) or a value written by hand: the defaults.
    return DEFAULTS;
  }
}

/**
 * The operator's column choice and density for one table, kept in localStorage under the
 * table's id so they survive a reload. Tables render only in the browser (behind the admin
 * guard), so reading storage during the first render cannot differ from the server's HTML.
 */
export function useTableSettings(id: string): [TableSettings, (next: Partial<TableSettings>) => void] {
  const [settings, setSettings] = useState<TableSettings>(() => (typeof window === "undefined" ? DEFAULTS : read(id)));
  const update = useCallback(
    (next: Partial<TableSettings>) =>
      setSettings((now) => {
        const merged = { ...now, ...next };
        try {
          window.localStorage.setItem(STORAGE_PREFIX + id, JSON.stringify(merged));
        } catch {
          // Storage full or refused: the choice holds until the page is left.
        }
        return merged;
      }),
    [id],
  );
  return [settings, update];
}

const titleText = (column: ColumnsType<never>[number], key: string) => (typeof column.title === "string" ? column.title : key);

/** 列设置: one checkbox per column; at least one column stays shown. */
export function ColumnSettings<Row>({ columns, hidden, onChange }: { columns: ColumnsType<Row>; hidden: string[]; onChange: (hidden: string[]) => void }) {
  const all = (columns as ColumnsType<never>).map((c, i) => ({ key: columnKey(c, i), title: titleText(c, columnKey(c, i)) }));
  const shown = all.filter((c) => !hidden.includes(c.key)).length;
  const content = (
    <div className={styles.columnList} data-testid="column-settings">
      <div className={styles.columnHead}>
        <span>列展示</span>
        <Button type="link" size="small" disabled={hidden.length === 0} onClick={() => onChange([])}>
          重置
        </Button>
      </div>
      {all.map((c) => {
        const visible = !hidden.includes(c.key);
        return (
          <Checkbox
            key={c.key}
            checked={visible}
            disabled={visible && shown === 1}
            onChange={(e) => onChange(e.target.checked ? hidden.filter((k) => k !== c.key) : [...hidden, c.key])}
          >
            {c.title}
          </Checkbox>
        );
      })}
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <Button icon={<SettingOutlined />} aria-label="列设置" title="列设置" />
    </Popover>
  );
}

/** 密度: antd Table's three sizes. */
export function DensityMenu({ density, onChange }: { density: Density; onChange: (density: Density) => void }) {
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        selectable: true,
        selectedKeys: [density],
        items: DENSITIES.map((d) => ({ key: d.key, label: d.label })),
        onClick: ({ key }) => onChange(key as Density),
      }}
    >
      <Button icon={<ColumnHeightOutlined />} aria-label="密度" title="密度" />
    </Dropdown>
  );
}
