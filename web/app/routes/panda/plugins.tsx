import { adminTableMessages } from "@contracts/admin-table-texts";
import { pluginAdminPaths } from "@contracts/plugin-admin-texts";
import { Alert, App, Button, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { BatchSwitchButtons } from "../../components/admin/BatchSwitchButtons";
import { pluginColumns, type PluginActions } from "../../components/admin/plugins/plugin-columns";
import { PluginInstallCard } from "../../components/admin/plugins/PluginInstallCard";
import { errorText, unwrap, type PluginRow, type PluginStaged } from "../../components/admin/plugins/plugin-types";
import { PluginTryDialog } from "../../components/admin/plugins/PluginTryDialog";
import { PluginVariablesDialog } from "../../components/admin/plugins/PluginVariablesDialog";
import { recordedPaths } from "@contracts/recorded-texts";
import { PluginReplayDialog } from "../../components/admin/recorded/PluginReplayDialog";
import { RecordedDrawer } from "../../components/admin/recorded/RecordedDrawer";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("来源插件");

/** A plugin as the table shows it: its platform is its row id. */
type Row = PluginRow & { id: string };

/**
 * 来源插件 (超级管理员, issue 21): MusicFree-protocol plugins that search and play a DJ site in
 * the sandbox. Install (file, address, subscription), try before enabling, switch, user
 * variables, the built-in site it replaces, update from its srcUrl (replayed against the source's
 * samples beside the version in use before it is activated, issue 22), roll back, remove. A short
 * list, loaded whole: the admin table without paging, like 来源管理, with 批量启用/停用 (ADR 0078).
 */
export default function Plugins() {
  const { message } = App.useApp();
  const table = useRef<AdminTableHandle>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [trying, setTrying] = useState<PluginRow | null>(null);
  const [editing, setEditing] = useState<PluginRow | null>(null);
  /** Newer versions stored and not yet used, replayed one after the other (检查更新, an upload…). */
  const [queue, setQueue] = useState<PluginStaged[]>([]);
  const next = queue[0] ?? null;
  const stagedRow = next ? (rows.find((r) => r.platform === next.platform) ?? null) : null;
  const done = () => setQueue((q) => q.slice(1));
  const [samples, setSamples] = useState<{ source: string | null } | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const { plugins } = await unwrap(adminCall<{ plugins: PluginRow[] }>("GET", pluginAdminPaths.list), adminTableMessages.loadFailed);
      setRows(plugins.map((p) => ({ ...p, id: p.platform })));
    } catch (err) {
      void message.error(errorText(err, adminTableMessages.loadFailed));
    } finally {
      setLoading(false);
    }
  }, [message]);

  useEffect(() => {
    void load();
  }, [load]);

  /** One change of one plugin: its row waits, the server's message is shown, the list reloads. */
  async function act(row: PluginRow, call: () => Promise<unknown>, done: string | ((after: PluginRow) => string)) {
    setBusy(row.platform);
    try {
      const after = (await call()) as PluginRow;
      void message.success(typeof done === "string" ? done : done(after));
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setBusy(null);
      await load();
    }
  }

  const patch = (row: PluginRow, body: Record<string, unknown>) => unwrap(adminCall<PluginRow>("PATCH", pluginAdminPaths.plugin(row.platform), body));
  const actions: PluginActions = {
    busy,
    setEnabled: (row, enabled) => void act(row, () => patch(row, { enabled }), enabled ? `已启用 ${row.platform}` : `已停用 ${row.platform}`),
    setReplaces: (row, replaces) => void act(row, () => patch(row, { replaces }), replaces ? `${row.platform} 现在替换内置来源 ${replaces}` : `${row.platform} 现在作为自有来源`),
    tryIt: setTrying,
    editVariables: setEditing,
    // A newer version is stored, not used: the replay dialog shows it beside the one in use.
    update: (row) => {
      setBusy(row.platform);
      unwrap(adminCall<Omit<PluginStaged, "platform">>("POST", recordedPaths.stage(row.platform)))
        .then((found) => setQueue((q) => [...q, { platform: row.platform, ...found }]))
        .catch((err: unknown) => void message.error(errorText(err)))
        .finally(() => setBusy(null));
    },
    samples: (row) => setSamples({ source: row.source }),
    rollback: (row) =>
      void act(
        row,
        () => unwrap(adminCall<PluginRow>("POST", pluginAdminPaths.rollback(row.platform))),
        (after) => `已回滚 ${row.platform} 到 v${after.version}`,
      ),
    remove: (row) => void act(row, () => unwrap(adminCall("DELETE", pluginAdminPaths.plugin(row.platform)), adminTableMessages.deleteFailed), adminTableMessages.deleteOk),
  };

  const switchedOff = rows.filter((r) => !r.enabled && r.disabledReason);

  return (
    <AdminPage title="来源插件">
      <Typography.Paragraph type="secondary" style={{ maxWidth: 860 }}>
        插件遵循 MusicFree 插件协议，在沙箱中运行，只能通过本站受控的网络请求访问外部站点。新安装的插件默认停用：先试用，确认能搜到结果、能解析播放地址后再启用；启用后网站的搜索会同时询问它。插件反复超出沙箱限制时，站点会自动停用并写明原因。
      </Typography.Paragraph>
      {switchedOff.length > 0 ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={`${switchedOff.length} 个插件已被站点自动停用`}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {switchedOff.map((r) => (
                <li key={r.platform}>
                  <Typography.Text strong>{r.platform}</Typography.Text>：{r.disabledReason}
                </li>
              ))}
            </ul>
          }
          data-testid="plugins-switched-off"
        />
      ) : null}
      <PluginInstallCard
        versionOf={(platform) => rows.find((r) => r.platform === platform)?.version}
        onInstalled={(answer) => {
          void load();
          if (answer.staged.length > 0) setQueue((q) => [...q, ...answer.staged]);
        }}
      />
      <AdminTable<Row>
        ref={table}
        rows={rows}
        loading={loading}
        onReload={() => void load()}
        columns={pluginColumns(actions)}
        selectable
        testId="plugin-table"
        toolbar={({ ids }) => (
          <>
            <Typography.Text strong>已安装 {rows.length} 个插件</Typography.Text>
            <BatchSwitchButtons ids={ids} path={pluginAdminPaths.switch} field="platforms" table={table} onSwitched={load} />
            <Button onClick={() => setSamples({ source: null })}>全部样本</Button>
          </>
        )}
        tableProps={{ locale: { emptyText: "还没有安装插件：在上方上传插件文件，或填写插件地址、订阅地址安装" } }}
      />
      <PluginTryDialog plugin={trying} onClose={() => setTrying(null)} />
      <PluginReplayDialog
        plugin={stagedRow}
        staged={stagedRow ? next : null}
        onClose={done}
        onActivate={(row, found) => {
          done();
          void act(row, () => unwrap(adminCall<PluginRow>("POST", recordedPaths.activate(row.platform), { versionId: found.versionId })), (after) => `已更新 ${row.platform}：v${row.version} → v${after.version}`);
        }}
      />
      <RecordedDrawer open={samples !== null} source={samples?.source ?? null} sources={rows.map((r) => ({ value: r.source, label: `${r.platform} (${r.source})` }))} onClose={() => setSamples(null)} />
      <PluginVariablesDialog
        plugin={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void load();
        }}
      />
    </AdminPage>
  );
}
