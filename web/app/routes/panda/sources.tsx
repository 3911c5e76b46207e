import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle, batchLabel } from "../../components/admin/AdminTable";
import { BatchSwitchButtons } from "../../components/admin/BatchSwitchButtons";
import { SourceEditDialog } from "../../components/admin/people/SourceEditDialog";
import { SourceTryDialog } from "../../components/admin/people/SourceTryDialog";
import type { SourceHealth, SourceRow } from "../../components/admin/people/source-types";
import { sourceColumns, type SourceTableRow } from "../../components/admin/people/source-columns";
import { CANARY_STATE_TEXT } from "../../components/admin/people/canary-text";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("来源管理");

type Row = SourceTableRow;
type CanaryState = keyof typeof CANARY_STATE_TEXT;
/** Canaries a 批量检测 runs at once: each reads a site's pages and media, so not all of them together. */
const CANARIES_AT_ONCE = 2;

/**
 * 来源管理 (超级管理员): every site with its switches, schedule and (generic sources) configuration,
 * a 'try it' search, and its health. A short list, loaded whole: the admin table without paging,
 * with 批量启用/停用 and 批量检测 for the selected sites (ADR 0078).
 */
export default function Sources() {
  const { message } = App.useApp();
  const table = useRef<AdminTableHandle>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  // The source stays while the dialog closes: its fade-out must not show the "new source" form.
  const [editing, setEditing] = useState<{ source: SourceRow | null; open: boolean }>({ source: null, open: false });
  const closeEditing = () => setEditing((e) => ({ ...e, open: false }));
  const [trying, setTrying] = useState<SourceRow | null>(null);
  const [checking, setChecking] = useState<Set<string>>(new Set());

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [list, health] = await Promise.all([
        adminCall<{ sources: SourceRow[] }>("GET", adminPeoplePaths.sources),
        adminCall<{ sources: SourceHealth[] }>("GET", adminPeoplePaths.sourcesHealth).catch(() => null),
      ]);
      if (list.code !== 1) throw new Error(list.msg);
      const byCode = new Map((health?.code === 1 ? health.data.sources : []).map((h) => [h.code, h]));
      setRows(list.data.sources.map((s) => ({ ...s, id: s.code, health: byCode.get(s.code) })));
    } catch (err) {
      void message.error(err instanceof Error && err.message ? err.message : adminTableMessages.loadFailed);
    } finally {
      setLoading(false);
    }
  }, [message]);

  useEffect(() => {
    void load();
  }, [load]);

  const setEnabled = async (row: Row, enabled: boolean) => {
    const res = await adminCall("PATCH", adminPeoplePaths.source(row.code), { enabled }).catch(() => null);
    if (res?.code === 1) void message.success(enabled ? "已启用" : "已停用");
    else void message.error(res?.msg || adminTableMessages.saveFailed);
    await load();
  };

  const mark = (code: string, on: boolean) =>
    setChecking((c) => {
      const next = new Set(c);
      if (on) next.add(code);
      else next.delete(code);
      return next;
    });

  /** One canary run: its verdict, or null when the call failed (its message already shown). */
  const canary = async (row: Row): Promise<CanaryState | null> => {
    mark(row.code, true);
    try {
      const res = await adminCall<{ canary: { state: CanaryState } }>("POST", adminPeoplePaths.sourceCanary(row.code)).catch(() => null);
      if (res?.code === 1) return res.data.canary.state;
      void message.error(`${row.name}：${res?.msg || "检测失败"}`);
      return null;
    } finally {
      mark(row.code, false);
    }
  };

  /** 立即检测: runs the source's canary now; the row shows the result once it is back. */
  const runCanary = async (row: Row) => {
    const state = await canary(row);
    if (state) void message.info(`${row.name}：${CANARY_STATE_TEXT[state][0]}`);
    await load();
  };

  /** 批量检测: the selected sources in use, a few at a time, each row waiting on its own; one summary. */
  const runCanaries = async (selected: Row[]) => {
    const queue = selected.filter((r) => r.inUse);
    const states: CanaryState[] = [];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const state = await canary(row);
        if (state) states.push(state);
      }
    };
    await Promise.all(Array.from({ length: CANARIES_AT_ONCE }, worker));
    const counts = (Object.keys(CANARY_STATE_TEXT) as CanaryState[]).filter((s) => states.includes(s)).map((s) => `${CANARY_STATE_TEXT[s][0]} ${states.filter((x) => x === s).length} 个`);
    if (states.length > 0) void message.info(`已检测 ${states.length} 个来源：${counts.join("，")}`);
    await load();
  };

  const remove = async (row: Row) => {
    const res = await adminCall("DELETE", adminPeoplePaths.source(row.code)).catch(() => null);
    if (res?.code === 1) void message.success(adminTableMessages.deleteOk);
    else void message.error(res?.msg || adminTableMessages.deleteFailed);
    await load();
  };

  const columns = sourceColumns({
    setEnabled: (row, on) => void setEnabled(row, on),
    edit: (row) => setEditing({ source: row, open: true }),
    tryIt: setTrying,
    runCanary: (row) => void runCanary(row),
    remove,
    checking,
  });

  return (
    <AdminPage title="来源管理">
      <AdminTable<Row>
        ref={table}
        rows={rows}
        loading={loading}
        onReload={() => void load()}
        columns={columns}
        selectable
        // 本站 (and a plugin's source while it is off) has no switch or canary of its own.
        canSelect={(row) => row.adapter !== "none"}
        testId="source-table"
        toolbar={({ ids, rows: picked }) => {
          const inUse = picked.filter((r) => r.inUse).length;
          return (
            <>
              <Button type="primary" onClick={() => setEditing({ source: null, open: true })}>
                新增通用来源
              </Button>
              <BatchSwitchButtons ids={ids} path={adminPeoplePaths.sourcesSwitch} field="codes" table={table} onSwitched={load} />
              <Button disabled={inUse === 0} loading={picked.some((r) => checking.has(r.code))} onClick={() => void runCanaries(picked)} title="只检测正在使用的来源">
                {batchLabel("批量检测", inUse)}
              </Button>
            </>
          );
        }}
      />
      <SourceEditDialog
        open={editing.open}
        source={editing.source}
        onClose={closeEditing}
        onSaved={() => {
          closeEditing();
          void load();
        }}
      />
      <SourceTryDialog source={trying} onClose={() => setTrying(null)} />
    </AdminPage>
  );
}
