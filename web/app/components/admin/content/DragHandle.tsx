import { HolderOutlined } from "@ant-design/icons";
import styles from "./drag-sort.module.css";

/** The grip a sortable row is dragged by (the whole row is draggable; this says so). */
export function DragHandle() {
  return <HolderOutlined className={styles.handle} aria-label="拖动排序" />;
}

/** The toolbar's note on how to reorder. */
export const DRAG_HINT = { className: styles.hint, text: "按“排序”升序时可拖动行调整顺序" };
