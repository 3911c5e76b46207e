import { Space } from "antd";
import { useRef, useState, type ReactNode } from "react";
import { useBrowserLayoutEffect } from "../../lib/use-browser-layout-effect";
import styles from "./admin-table.module.css";

interface AdminToolbarProps {
  /** Under 576 px (antd's sm): the phone's two rows instead of the wrapping desktop row. */
  phone: boolean;
  /** The screen's filters (selects, date ranges…): first on a desktop; on a phone a wrapping block of their own. */
  filters?: ReactNode;
  /** The screen's buttons, then 刷新. */
  actions: ReactNode;
  /** The screen's other buttons (导出CSV…): on the right on a desktop, after the actions on a phone. */
  extra?: ReactNode;
  /** The keyword box, when the table has one. */
  search?: ReactNode;
  /** 密度 and 列设置. */
  settings: ReactNode;
}

/**
 * An admin table's toolbar. On a desktop: the actions on the left, the keyword box, the extra
 * buttons and the settings on the right, wrapping when they do not fit. On a phone the same
 * parts wrapped into three ragged lines (ADR 0078): there the keyword box takes a row of its
 * own, and the actions one line that scrolls sideways (faded at an edge with more) beside the
 * settings, which stay in place.
 */
export function AdminToolbar({ phone, filters, actions, extra, search, settings }: AdminToolbarProps) {
  if (!phone) {
    return (
      <div className={styles.toolbar}>
        <Space wrap>
          {filters}
          {actions}
        </Space>
        <Space wrap className={styles.toolbarEnd}>
          {search}
          {extra}
          {settings}
        </Space>
      </div>
    );
  }
  return (
    <div className={styles.phoneToolbar} data-testid="admin-toolbar-phone">
      {search ? <div className={styles.phoneSearch}>{search}</div> : null}
      {filters ? (
        <div className={styles.phoneFilters} data-testid="admin-toolbar-filters">
          {filters}
        </div>
      ) : null}
      <div className={styles.phoneRow}>
        <ScrollRow>
          {actions}
          {extra}
        </ScrollRow>
        <div className={styles.phoneSettings}>{settings}</div>
      </div>
    </div>
  );
}

/** One line that scrolls sideways; its edges say whether more lies beyond them (for the fades). */
function ScrollRow({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  const measure = () => {
    const el = ref.current;
    if (!el) return;
    const start = el.scrollLeft > 1;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((now) => (now.start === start && now.end === end ? now : { start, end }));
  };
  // After every render: a batch button's count or a filter's value changes the row's width.
  useBrowserLayoutEffect(measure);
  useBrowserLayoutEffect(() => {
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  return (
    <div ref={ref} className={styles.scrollRow} onScroll={measure} data-more-start={more.start} data-more-end={more.end} data-testid="admin-toolbar-actions">
      {children}
    </div>
  );
}
