import type { DashboardAnswer, DashboardCache, DashboardSourceHealth, DashboardStat } from "@contracts/dashboard-texts";
import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { Card, Col, Descriptions, Row, Statistic, Table, Tag } from "antd";
import type { TableColumnsType as ColumnsType } from "antd";
import { change, chinaTime, formatBytes, formatUptime } from "./format";
import styles from "./dashboard.module.css";
import { SourceCanary } from "../people/SourceCanary";

const CARDS = [
  { key: "suites", title: "套曲总数", today: "今日新增" },
  { key: "users", title: "用户总数", today: "今日注册" },
  { key: "playsToday", title: "今日播放", today: null },
  { key: "downloadsToday", title: "今日下载", today: null },
] as const;

function StatCard({ title, todayLabel, stat }: { title: string; todayLabel: string | null; stat: DashboardStat }) {
  const c = change(stat.today, stat.yesterday);
  return (
    <Card data-testid="dashboard-stat" className={styles.statCard}>
      <Statistic title={title} value={stat.value} />
      <div className={styles.statFoot}>
        {todayLabel ? (
          <span>
            {todayLabel} {stat.today}
          </span>
        ) : null}
        <span>
          较昨日{" "}
          <span className={styles[c.trend]} data-testid="dashboard-change">
            {c.trend === "up" ? <ArrowUpOutlined /> : c.trend === "down" ? <ArrowDownOutlined /> : null} {c.text}
          </span>
        </span>
        <span>昨日 {stat.yesterday}</span>
      </div>
    </Card>
  );
}

export function StatCards({ stats }: { stats: DashboardAnswer["stats"] }) {
  return (
    <Row gutter={[16, 16]} className={styles.cards}>
      {CARDS.map((card) => (
        <Col key={card.key} xs={24} sm={12} xl={6}>
          <StatCard title={card.title} todayLabel={card.today} stat={stats[card.key]} />
        </Col>
      ))}
    </Row>
  );
}

const ENGINE_NAMES = { pglite: "PGlite (内嵌)", postgres: "PostgreSQL" } as const;

export function SystemInfo({ system }: { system: DashboardAnswer["system"] }) {
  // "PostgreSQL 17.5 on x86_64-pc-linux-gnu, compiled by …": the first words say enough.
  const dbVersion = system.dbVersion.split(" on ")[0] || system.dbVersion;
  return (
    <Card title="系统信息" className={styles.section} data-testid="dashboard-system">
      <Descriptions column={1} size="small">
        <Descriptions.Item label="程序版本">v{system.appVersion}</Descriptions.Item>
        <Descriptions.Item label="操作系统">{system.os}</Descriptions.Item>
        <Descriptions.Item label="Node.js">{system.nodeVersion}</Descriptions.Item>
        <Descriptions.Item label="数据库">
          {ENGINE_NAMES[system.dbEngine]} · <span title={system.dbVersion}>{dbVersion}</span>
        </Descriptions.Item>
        <Descriptions.Item label="运行时间">{formatUptime(system.uptimeSec)}</Descriptions.Item>
        <Descriptions.Item label="数据目录">
          {formatBytes(system.dataDirBytes)}
          {system.dataDirPartial ? " 以上" : ""} <span className={styles.flat}>({system.dataDir})</span>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

const STATE_TAGS = {
  closed: <Tag color="success">正常</Tag>,
  "half-open": <Tag color="warning">试探中</Tag>,
  open: <Tag color="error">已熔断</Tag>,
} as const;

const sourceColumns: ColumnsType<DashboardSourceHealth> = [
  { title: "来源", dataIndex: "name", render: (name: string, r) => `${name} (${r.code})` },
  { title: "熔断状态", dataIndex: "state", render: (s: DashboardSourceHealth["state"]) => STATE_TAGS[s] },
  {
    title: "成功率",
    dataIndex: "successRate",
    render: (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`),
  },
  {
    title: "巡检",
    dataIndex: "canary",
    render: (c: DashboardSourceHealth["canary"], r) => <SourceCanary code={r.code} canary={c} compact />,
  },
  { title: "P95 延迟", dataIndex: "p95Ms", render: (v: number | null) => (v === null ? "—" : `${v} ms`) },
  {
    title: "最近错误",
    dataIndex: "lastError",
    render: (e: DashboardSourceHealth["lastError"]) => (e ? `${chinaTime(e.at)} ${e.message}` : "—"),
  },
];

export function SourceHealth({ sources }: { sources: DashboardSourceHealth[] }) {
  return (
    <Card title="来源健康" className={styles.section} data-testid="dashboard-sources">
      <Table
        rowKey="code"
        size="small"
        pagination={false}
        columns={sourceColumns}
        dataSource={sources}
        locale={{ emptyText: "未启用外部来源" }}
        scroll={{ x: "max-content" }}
      />
    </Card>
  );
}

const loginColumns: ColumnsType<DashboardAnswer["logins"][number]> = [
  { title: "时间", dataIndex: "createdAt", render: (v: string) => chinaTime(v) },
  { title: "管理员", dataIndex: "admin" },
  { title: "IP", dataIndex: "ip" },
  { title: "地点", dataIndex: "location", render: (v: string) => v || "未知" },
  {
    title: "结果",
    dataIndex: "success",
    render: (ok: boolean) => (ok ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>),
  },
];

export function RecentLogins({ logins }: { logins: DashboardAnswer["logins"] }) {
  return (
    <Card title="最近登录" className={styles.section} data-testid="dashboard-logins">
      <Table rowKey="id" size="small" pagination={false} columns={loginColumns} dataSource={logins} locale={{ emptyText: "暂无登录记录" }} scroll={{ x: "max-content" }} />
    </Card>
  );
}


const cacheColumns: ColumnsType<DashboardCache> = [
  { title: "缓存", dataIndex: "name" },
  { title: "条目", dataIndex: "entries" },
  { title: "占用", dataIndex: "bytes", render: (v: number, r) => `${formatBytes(v)} / ${formatBytes(r.maxBytes)}` },
  { title: "命中", dataIndex: "hits" },
  { title: "未命中", dataIndex: "misses" },
  { title: "事件丢弃", dataIndex: "drops" },
  { title: "挤出", dataIndex: "evictions" },
];

/** This instance's caches (ADR 0054): the same counters as /metrics' djsearch_cache_*. */
export function CacheTable({ caches }: { caches: DashboardCache[] }) {
  return (
    <Card title="缓存" className={styles.section} data-testid="dashboard-caches">
      <Table rowKey="name" size="small" pagination={false} columns={cacheColumns} dataSource={caches} scroll={{ x: "max-content" }} />
    </Card>
  );
}
