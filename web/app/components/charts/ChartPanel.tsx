import { sideKey } from "@contracts/chart-keys";
import type { ChartSide } from "@contracts/charts";
import { useState } from "react";
import { Link } from "react-router";
import styles from "./charts.module.css";

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

/** Charts panel (spec: site / type / period switches) over the `side` data the page loaded. */
export function ChartPanel({ side }: { side: ChartSide }) {
  const [site, setSite] = useState<string>(SITES[0].code);
  const [type, setType] = useState<Type>("mix");
  const [period, setPeriod] = useState<Period>("week");
  // Singles have no day chart: switching to singles on 日榜 shows 周榜.
  const effectivePeriod = type === "single" && period === "day" ? "week" : period;
  const key = sideKey(type, effectivePeriod);
  const list = (key && side[site]?.[key]) || [];

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
      {list.length ? (
        <ol className={styles.list}>
          {list.slice(0, 10).map((item) => (
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
