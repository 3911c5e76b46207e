import { sideKey } from "@contracts/chart-keys";
// Type-only: erased from the bundle, so no zod reaches the browser.
import type { ChartItem } from "@contracts/charts";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import styles from "./charts.module.css";
import { FIRST_CHART, fetchChart, PANEL_LINES, type PanelCharts } from "./panel-charts";

const SITES = [
  { code: "djuu", name: "DJUU" },
  { code: "172minx", name: "172Mix" },
  { code: "vvvdj", name: "清风DJ" },
] as const;
const TYPES = [
  { code: "mix", name: "串烧榜" },
  { code: "single", name: "单曲榜" },
] as const;
const PERIODS = [
  { code: "day", name: "日榜" },
  { code: "week", name: "周榜" },
  { code: "month", name: "月榜" },
  { code: "quarter", name: "季榜" },
] as const;

type Type = (typeof TYPES)[number]["code"];
type Period = (typeof PERIODS)[number]["code"];

/**
 * Charts panel (spec: site / type / period switches). It starts with the charts the page sent
 * (panel-charts.ts: the one shown first) and fetches any other one when it is chosen.
 */
export function ChartPanel({ side }: { side: PanelCharts }) {
  const [site, setSite] = useState<string>(FIRST_CHART.site);
  const [type, setType] = useState<Type>(FIRST_CHART.type);
  const [period, setPeriod] = useState<Period>(FIRST_CHART.period);
  const [fetched, setFetched] = useState<Record<string, ChartItem[] | "failed">>({});
  // Singles have no day chart: switching to singles on 日榜 shows 周榜.
  const effectivePeriod = type === "single" && period === "day" ? "week" : period;
  const key = sideKey(type, effectivePeriod);
  const chosen = `${site}/${key}`;
  const known = key ? (side[site]?.[key] ?? fetched[chosen]) : [];

  useEffect(() => {
    if (known !== undefined) return;
    let current = true;
    fetchChart(site, type, effectivePeriod).then(
      (list) => current && setFetched((f) => ({ ...f, [chosen]: list })),
      () => current && setFetched((f) => ({ ...f, [chosen]: "failed" })),
    );
    return () => {
      current = false;
    };
  }, [known, site, type, effectivePeriod, chosen]);

  return (
    <aside className={styles.panel} aria-label="排行榜">
      <h2 className={styles.title}>排行榜</h2>
      <Switch label="站点" options={SITES} value={site} onChange={setSite} />
      <Switch label="类型" options={TYPES} value={type} onChange={setType} />
      <Switch
        label="周期"
        options={PERIODS.filter((p) => type === "mix" || p.code !== "day")}
        value={effectivePeriod}
        onChange={setPeriod}
      />
      {known === undefined ? (
        <p className={styles.empty} aria-busy="true">
          加载中…
        </p>
      ) : known === "failed" ? (
        <p className={styles.empty}>榜单加载失败，请稍后再试</p>
      ) : known.length ? (
        <ol className={styles.list}>
          {known.slice(0, PANEL_LINES).map((item) => (
            <li key={item.id} className={styles.row}>
              <span className={item.rank <= 3 ? `${styles.rank} ${styles.top}` : styles.rank}>{item.rank}</span>
              <Link to={item.url} className={styles.name} title={item.name}>
                {item.name}
              </Link>
              <span className={styles.plays}>{item.plays}次</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className={styles.empty}>暂无榜单数据</p>
      )}
    </aside>
  );
}

function Switch<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { code: T; name: string }[];
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <div className={styles.switch} role="tablist" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.code}
          type="button"
          role="tab"
          aria-selected={o.code === value}
          className={o.code === value ? `${styles.tab} ${styles.active}` : styles.tab}
          onClick={() => onChange(o.code)}
        >
          {o.name}
        </button>
      ))}
    </div>
  );
}
