import { Button, Space, Switch, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { DeleteConfirm } from "../DeleteConfirm";
import { SourceCanary } from "./SourceCanary";
import { sourceStatus } from "./source-status";
import { ADAPTER_TEXT, type SourceHealth, type SourceRow } from "./source-types";

/** A row of 来源管理: the source, its health, and its code as the table's row id. */
export type SourceTableRow = SourceRow & { id: string; health?: SourceHealth };

export interface SourceActions {
  setEnabled(row: SourceTableRow, enabled: boolean): void;
  edit(row: SourceTableRow): void;
  tryIt(row: SourceTableRow): void;
  runCanary(row: SourceTableRow): void;
  remove(row: SourceTableRow): Promise<void>;
  /** Codes whose canary is running (their 立即检测 waits). */
  checking: ReadonlySet<string>;
}

/** 来源管理's columns: each site, its switch and whether it is used, its settings, health and canary. */
export function sourceColumns(a: SourceActions): ColumnsType<SourceTableRow> {
  return [
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
    {
      title: "适配器",
      dataIndex: "adapter",
      key: "adapter",
      width: 100,
      render: (v: SourceRow["adapter"], row) =>
        v === "plugin" ? (
          <Tooltip title={`由插件「${row.plugin}」提供，在来源插件中安装、更新和启停`}>
            <a href="/panda/plugins" data-source-plugin={row.code}>
              <Tag color="purple">{ADAPTER_TEXT[v]}</Tag>
            </a>
          </Tooltip>
        ) : (
          <Tag color={v === "generic" ? "blue" : undefined}>{v === "none" && row.code !== "local" ? "无适配器" : ADAPTER_TEXT[v]}</Tag>
        ),
    },
    {
      title: "启用",
      dataIndex: "enabled",
      key: "enabled",
      width: 120,
      render: (on: boolean, row) => {
        if (row.adapter === "none") return "-";
        // The switch is the row's `enabled`; the tag says whether search and collect use it (issue 21).
        const { use } = sourceStatus(row, row.health);
        return (
          <Space size={4}>
            <Switch size="small" checked={on} onChange={(v) => a.setEnabled(row, v)} aria-label={`启用 ${row.name}`} />
            <Tooltip title={use.hint}>
              <Tag color={use.color} data-source-use={row.code}>
                {use.text}
              </Tag>
            </Tooltip>
          </Space>
        );
      },
    },
    { title: "排序", dataIndex: "sort", key: "sort", width: 70 },
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
    { title: "采集间隔", dataIndex: "collectIntervalMinutes", key: "collectIntervalMinutes", width: 100, render: (m: number) => (m > 0 ? `${m} 分钟` : "不定时") },
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
      // Four small buttons on one line (a generic source's 删除 included): the column is fixed on the right.
      width: 290,
      render: (_v, row) =>
        row.adapter === "none" ? null : (
          <Space size="small">
            <Button size="small" onClick={() => a.edit(row)}>
              设置
            </Button>
            <Button size="small" disabled={!row.inUse} onClick={() => a.tryIt(row)}>
              试搜
            </Button>
            <Button size="small" disabled={!row.inUse} loading={a.checking.has(row.code)} onClick={() => a.runCanary(row)} data-canary-run={row.code}>
              立即检测
            </Button>
            {row.adapter === "generic" ? <DeleteConfirm link title={`删除来源 ${row.name}？`} onConfirm={() => a.remove(row)} /> : null}
          </Space>
        ),
    },
  ];
}
