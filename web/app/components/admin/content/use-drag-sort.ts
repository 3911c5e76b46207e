import { App } from "antd";
import type { DragEvent, HTMLAttributes } from "react";
import { useRef, useState } from "react";
import type { AdminTableHandle } from "../AdminTable";
import { adminSave } from "./admin-save";

/** Shown when a row is dragged while the table is in another order than the menu's. */
export const DRAG_NEEDS_SORT_ORDER = "请先按“排序”列升序排列，再拖动行调整顺序";

/**
 * Drag-to-sort rows of an admin table (ADR 0065): a row dropped on another takes its place
 * (`POST path {id, to}`; the server renumbers the whole list), then the table reloads. Only while
 * the table shows the list's own order (排序 ascending): dropped anywhere else, the result would
 * not be where the operator let go. `defaultSortIsOrder`: the table's order without a sort chosen
 * is 排序 ascending (categories).
 */
export function useDragSort<Row extends { id: number }>(path: string, table: { current: AdminTableHandle | null }, defaultSortIsOrder: boolean) {
  const { message } = App.useApp();
  const dragged = useRef<number | null>(null);
  const [over, setOver] = useState<number | null>(null);

  const inOrder = () => {
    const q = table.current?.query() ?? {};
    const field = q.sort ?? (defaultSortIsOrder ? "sort" : undefined);
    return field === "sort" && (q.order ?? "asc") === "asc" && !q.search;
  };
  const end = () => {
    dragged.current = null;
    setOver(null);
  };

  return (row: Row): HTMLAttributes<HTMLElement> & { "data-drag-over"?: string } => ({
    draggable: true,
    "data-drag-over": over === row.id ? "true" : undefined,
    onDragStart: (e: DragEvent) => {
      if (!inOrder()) {
        e.preventDefault();
        void message.info(DRAG_NEEDS_SORT_ORDER);
        return;
      }
      dragged.current = row.id;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", String(row.id));
    },
    onDragOver: (e: DragEvent) => {
      if (dragged.current === null) return;
      e.preventDefault(); // allows the drop
      if (over !== row.id) setOver(row.id);
    },
    onDragEnd: end,
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      const id = dragged.current;
      end();
      if (id === null || id === row.id) return;
      void adminSave(message, "POST", path, { id, to: row.id }).then((saved) => {
        if (saved) table.current?.reload();
      });
    },
  });
}
