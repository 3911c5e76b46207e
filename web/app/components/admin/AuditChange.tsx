import type { AuditRow } from "@contracts/admin-accounts";
import styles from "./audit-change.module.css";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));

/**
 * An audit row's change: before and after side by side; for two records, the fields that
 * changed are listed first and marked.
 */
export function AuditChange({ row }: { row: AuditRow }) {
  const { before, after, detail } = row;
  const keys = isRecord(before) && isRecord(after) ? [...new Set([...Object.keys(before), ...Object.keys(after)])] : null;
  const changed = keys?.filter((k) => JSON.stringify(before && (before as Record<string, unknown>)[k]) !== JSON.stringify(after && (after as Record<string, unknown>)[k])) ?? [];
  return (
    <div className={styles.change} data-testid="audit-change">
      {keys ? (
        <table className={styles.fields}>
          <thead>
            <tr>
              <th>字段</th>
              <th>修改前</th>
              <th>修改后</th>
            </tr>
          </thead>
          <tbody>
            {[...changed, ...keys.filter((k) => !changed.includes(k))].map((k) => (
              <tr key={k} className={changed.includes(k) ? styles.changed : undefined}>
                <td>{k}</td>
                <td>
                  <pre>{show((before as Record<string, unknown>)[k])}</pre>
                </td>
                <td>
                  <pre>{show((after as Record<string, unknown>)[k])}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className={styles.columns}>
          <div>
            <h4>修改前</h4>
            <pre>{before === null ? "（无）" : show(before)}</pre>
          </div>
          <div>
            <h4>修改后</h4>
            <pre>{after === null ? "（无）" : show(after)}</pre>
          </div>
        </div>
      )}
      {Object.keys(detail).length > 0 ? (
        <div>
          <h4>其他</h4>
          <pre>{show(detail)}</pre>
        </div>
      ) : null}
    </div>
  );
}
