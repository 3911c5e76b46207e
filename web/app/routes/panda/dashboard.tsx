import type { DashboardAnswer, DashboardSeriesAnswer } from "@contracts/dashboard-texts";
import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Badge, Button, Card, Col, Row, Spin } from "antd";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { CacheTable, RecentLogins, SourceHealth, StatCards, SystemInfo } from "../../components/admin/dashboard/DashboardPanels";
import { chinaTime } from "../../components/admin/dashboard/format";
import styles from "../../components/admin/dashboard/dashboard.module.css";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("控制台");

// ECharts comes with this lazy module only: the public pages (and the other admin pages) never load it.
const TrendChart = lazy(() => import("../../components/admin/dashboard/TrendChart"));

/** The page reads the dashboard again this often while it is visible ("live"). */
const REFRESH_MS = 30_000;

export default function Dashboard() {
  const [data, setData] = useState<DashboardAnswer | null>(null);
  const [series, setSeries] = useState<DashboardSeriesAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [d, s] = await Promise.all([
        adminCall<DashboardAnswer>("GET", "/api/pandaadmin/dashboard"),
        adminCall<DashboardSeriesAnswer>("GET", "/api/pandaadmin/dashboard/series?days=30"),
      ]);
      if (d.code !== 1 || s.code !== 1) throw new Error(d.code !== 1 ? d.msg : s.msg);
      setData(d.data);
      setSeries(s.data);
      setError(null);
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : "获取数据失败");
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => {
      if (!document.hidden) void load();
    }, REFRESH_MS);
    const onVisible = () => {
      if (!document.hidden) void load();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [load]);

  return (
    <section>
      <div className={styles.head}>
        <h2 className={styles.title}>控制台</h2>
        <div className={styles.live} data-testid="dashboard-live">
          <Badge status={error ? "error" : "processing"} text="实时" />
          <span>每 30 秒刷新{data ? ` · 更新于 ${chinaTime(data.generatedAt).slice(-8)}` : ""}</span>
          <Button size="small" icon={<ReloadOutlined />} loading={loading} onClick={() => void load()}>
            刷新
          </Button>
        </div>
      </div>
      {error ? <Alert type="error" showIcon title={error} className={styles.section} /> : null}
      {data ? (
        <>
          <StatCards stats={data.stats} />
          <Card title="近 30 天趋势" className={styles.section}>
            {series ? (
              <Suspense fallback={<div className={styles.chartPending}><Spin /></div>}>
                <TrendChart series={series} />
              </Suspense>
            ) : null}
          </Card>
          <Row gutter={16}>
            <Col xs={24} xl={10}>
              <SystemInfo system={data.system} />
            </Col>
            <Col xs={24} xl={14}>
              <SourceHealth sources={data.sources} />
              <RecentLogins logins={data.logins} />
            </Col>
          </Row>
          <CacheTable caches={data.caches} />
        </>
      ) : error ? null : (
        <div className={styles.chartPending}>
          <Spin />
        </div>
      )}
    </section>
  );
}
