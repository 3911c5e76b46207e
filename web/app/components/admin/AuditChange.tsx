import type { AuditRow } from "@contracts/admin-accounts";
import { auditFieldLabel } from "@contracts/audit-labels";
import styles from "./audit-change.module.css";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A text as its lines (a footer, a description), anything else as indented JSON. */
const show = (v: unknown) => (v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v, null, 2));

/** A field's Chinese name, its key beside it (what the API and exports call it). */
function Field({ name }: { name: string }) {
  const label = auditFieldLabel(name);
  return label === name ? <>{name}</> : (
    <>
      {label} <code className={styles.key}>{name}</code>
    </>
  );
}

/** A record's fields as a table of names and values (the 其他 part, or a created/deleted record). */
function Fields({ record }: { record: Record<string, unknown> }) {
  return (
    <table className={styles.fields}>
      <tbody>
        {Object.entries(record).map(([k, v]) => (
          <tr key={k}>
            <th>
              <Field name={k} />
            </th>
            <td>
              <pre>{show(v)}</pre>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const Value = ({ value }: { value: unknown }) => (value === null || value === undefined ? <pre>（无）</pre> : isRecord(value) ? <Fields record={value} /> : <pre>{show(value)}</pre>);

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
                <td>
                  <Field name={k} />
                </td>
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
            <Value value={before} />
          </div>
          <div>
            <h4>修改后</h4>
            <Value value={after} />
          </div>
        </div>
      )}
      {Object.keys(detail).length > 0 ? (
        <div>
          <h4>其他</h4>
          <Fields record={detail} />
        </div>
      ) : null}
    </div>
  );
}
