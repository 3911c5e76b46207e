import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Space, Switch, Table, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useCallback, useEffect, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { SourceEditDialog } from "../../components/admin/people/SourceEditDialog";
import { SourceTryDialog } from "../../components/admin/people/SourceTryDialog";
import { ADAPTER_TEXT, type SourceHealth, type SourceRow } from "../../components/admin/people/source-types";
import { sourceStatus } from "../../components/admin/people/source-status";
import { SourceCanary } from "../../components/admin/people/SourceCanary";
import { CANARY_STATE_TEXT } from "../../components/admin/people/canary-text";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";

export const meta = () => pageMeta("来源管理");

type Row = SourceRow & { health?: SourceHealth };

/**
 * 来源管理 (超级管理员): every site with its switches, schedule and (generic sources) configuration,
 * a 'try it' search, and its health. A short list of sites, not a paged table API: a plain table.
 */
export default function Sources() {
  const { message } = App.useApp();
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
      setRows(list.data.sources.map((s) => ({ ...s, health: byCode.get(s.code) })));
    } catch (err) {
      void message.error(err instanceof Error && err.message ? err.message : adminTableMessages.loadFailed);
    } finally {
      setLoading(false);
    }
  }, [message]);

  useEffect(() => {
    void load();
  }, [load]);

  async function setEnabled(row: Row, enabled: boolean) {
    const res = await adminCall("PATCH", adminPeoplePaths.source(row.code), { enabled }).catch(() => null);
    if (res?.code === 1) void message.success(enabled ? "已启用" : "已停用");
    else void message.error(res?.msg || adminTableMessages.saveFailed);
    await load();
  }

  /** 立即检测: runs the source's canary now; the row shows the result once it is back. */
  async function runCanary(row: Row) {
    setChecking((c) => new Set(c).add(row.code));
    try {
      const res = await adminCall<{ canary: { state: keyof typeof CANARY_STATE_TEXT } }>("POST", adminPeoplePaths.sourceCanary(row.code)).catch(() => null);
      if (res?.code === 1) void message.info(`${row.name}：${CANARY_STATE_TEXT[res.data.canary.state][0]}`);
      else void message.error(res?.msg || "检测失败");
      await load();
    } finally {
      setChecking((c) => {
        const next = new Set(c);
        next.delete(row.code);
        return next;
      });
    }
  }

  async function remove(row: Row) {
    const res = await adminCall("DELETE", adminPeoplePaths.source(row.code)).catch(() => null);
    if (res?.code === 1) void message.success(adminTableMessages.deleteOk);
    else void message.error(res?.msg || adminTableMessages.deleteFailed);
    await load();
  }

  const columns: ColumnsType<Row> = [
    {
      title: "来源",
      key: "name",
      render: (_v, row) => (
        <Space direction="vertical" size={0}>
          <a href={row.homepage} target="_blank" rel="noreferrer">
            {row.name}
          </a>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.code}
          </Typography.Text>
        </Space>
      ),
    },
    { title: "适配器", dataIndex: "adapter", width: 100, render: (a: Row["adapter"]) => <Tag color={a === "generic" ? "blue" : undefined}>{ADAPTER_TEXT[a]}</Tag> },
    {
      title: "启用",
      dataIndex: "enabled",
      width: 110,
      render: (on: boolean, row) => {
        if (row.adapter === "none") return "-";
        // The switch is the row's `enabled`; the tag says whether search and collect use it (issue 21).
        const { use } = sourceStatus(row, row.health);
        return (
          <Space size={4}>
            <Switch size="small" checked={on} onChange={(v) => void setEnabled(row, v)} aria-label={`启用 ${row.name}`} />
            <Tooltip title={use.hint}>
              <Tag color={use.color} data-source-use={row.code}>
                {use.text}
              </Tag>
            </Tooltip>
          </Space>
        );
      },
    },
    { title: "排序", dataIndex: "sort", width: 70 },
    {
      title: "超时",
      key: "timeout",
      width: 110,
      render: (_v, row) =>
        row.timeoutMs === null ? (
          "-"
        ) : (
          <span style={{ whiteSpace: "nowrap" }}>
            {row.timeoutMs} ms
            {row.timeoutDefault ? <Typography.Text type="secondary"> 默认</Typography.Text> : null}
          </span>
        ),
    },
    { title: "采集间隔", dataIndex: "collectIntervalMinutes", width: 100, render: (m: number) => (m > 0 ? `${m} 分钟` : "不定时") },
    {
      title: "健康",
      key: "health",
      width: 240,
      render: (_v, row) => {
        const h = row.health;
        const { breaker, until, reason } = sourceStatus(row, h);
        if (!h || !breaker) return <Typography.Text type="secondary">{row.inUse ? "尚无调用" : "-"}</Typography.Text>;
        return (
          <Space direction="vertical" size={0} data-source-health={row.code}>
            <Space size={6} wrap>
              <Tag color={breaker.color}>{breaker.text}</Tag>
              <span>成功率 {h.successRate === null ? "-" : `${Math.round(h.successRate * 100)}%`}</span>
              <span>
                p50 {h.p50Ms ?? "-"} / p95 {h.p95Ms ?? "-"} ms
              </span>
            </Space>
            {until ? <Typography.Text type="warning">暂停搜索至 {until}，之后再试探</Typography.Text> : null}
            {reason ? (
              <Tooltip title={`${reason.at} ${reason.message}`}>
                <Typography.Text type="danger" ellipsis style={{ maxWidth: 260 }}>
                  最近错误：{reason.text}（{reason.message}）
                </Typography.Text>
              </Tooltip>
            ) : null}
          </Space>
        );
      },
    },
    {
      title: "巡检",
      key: "canary",
      width: 260,
      render: (_v, row) => (row.adapter === "none" ? "-" : row.inUse ? <SourceCanary code={row.code} canary={row.health?.canary} /> : <Typography.Text type="secondary">-</Typography.Text>),
    },
    {
      title: "操作",
      key: "actions",
      width: 250,
      render: (_v, row) =>
        row.adapter === "none" ? null : (
          <Space size="small">
            <Button size="small" onClick={() => setEditing({ source: row, open: true })}>
              设置
            </Button>
            <Button size="small" disabled={!row.inUse} onClick={() => setTrying(row)}>
              试搜
            </Button>
            <Button size="small" disabled={!row.inUse} loading={checking.has(row.code)} onClick={() => void runCanary(row)} data-canary-run={row.code}>
              立即检测
            </Button>
            {row.adapter === "generic" ? (
              <DeleteConfirm title={`删除来源 ${row.name}？`} onConfirm={() => remove(row)} />
            ) : null}
          </Space>
        ),
    },
  ];

  return (
    <AdminPage title="来源管理">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setEditing({ source: null, open: true })}>
          新增通用来源
        </Button>
        <Button onClick={() => void load()}>刷新</Button>
      </Space>
      <Table<Row> rowKey="code" columns={columns} dataSource={rows} loading={loading} pagination={false} scroll={{ x: 1300 }} data-testid="source-table" />
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
