import { type ChartBoard, sideKey } from "@contracts/chart-keys";
// Type-only: erased from the bundle, so no zod reaches the browser.
import type { ChartItem, SourceChartItem } from "@contracts/charts";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import styles from "./charts.module.css";
import { FIRST_CHART, fetchChart, fetchSiteChart, PANEL_LINES, type PanelCharts } from "./panel-charts";
import { SiteChartList } from "./SiteChartList";

const SITES: readonly { code: string; name: string }[] = [
  { code: "djuu", name: "DJUU" },
  { code: "172minx", name: "172Mix" },
  { code: "vvvdj", name: "清风DJ" },
];

/** A plugin's own source (`p-…`, ADR 0048): its board is the top lists collected from it. */
export const isPluginSource = (code: string) => code.startsWith("p-");
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
type Loaded<T> = T[] | "failed" | undefined;

/** Fetches `load()` once for `key` while `wanted` and it is not known yet; failures are kept as "failed". */
function useFetched<T>(key: string, wanted: boolean, load: () => Promise<T[]>) {
  const [fetched, setFetched] = useState<Record<string, T[] | "failed">>({});
  const known = fetched[key];
  useEffect(() => {
    if (!wanted || known !== undefined) return;
    let current = true;
    load().then(
      (list) => current && setFetched((f) => ({ ...f, [key]: list })),
      () => current && setFetched((f) => ({ ...f, [key]: "failed" })),
    );
    return () => {
      current = false;
    };
    // `load` is made anew each render; `key` says what it loads.
  }, [key, wanted, known]);
  return known;
}

/**
 * Charts panel (spec: site / type / period switches). It starts with the charts the page sent
 * (panel-charts.ts: the one shown first) and fetches any other one when it is chosen. A second
 * switch shows our qualified plays (本站播放) or the site's own chart as collected from it
 * (DJUU榜 …); until the visitor picks one, an empty plays chart gives way to the site's.
 */
export function ChartPanel({ side, pluginSites = [] }: { side: PanelCharts; pluginSites?: readonly { code: string; name: string }[] }) {
  const sites = [...SITES, ...pluginSites.filter((s) => isPluginSource(s.code)).map(({ code, name }) => ({ code, name }))];
  const [site, setSite] = useState<string>(FIRST_CHART.site);
  const [type, setType] = useState<Type>(FIRST_CHART.type);
  const [period, setPeriod] = useState<Period>(FIRST_CHART.period);
  const [picked, setPicked] = useState<ChartBoard | null>(null);
  // Singles have no day chart: switching to singles on 日榜 shows 周榜.
  const effectivePeriod = type === "single" && period === "day" ? "week" : period;
  const key = sideKey(type, effectivePeriod);
  const chosen = `${site}/${key}`;
  const sent = key ? side[site]?.[key] : [];
  const fetchedPlays = useFetched<ChartItem>(chosen, sent === undefined && picked !== "site", () => fetchChart(site, type, effectivePeriod));
  const plays: Loaded<ChartItem> = sent ?? fetchedPlays;
  const board: ChartBoard = picked ?? (Array.isArray(plays) && plays.length === 0 ? "site" : "plays");
  const own: Loaded<SourceChartItem> = useFetched<SourceChartItem>(chosen, board === "site" && !!key, () =>
    fetchSiteChart(site, type, effectivePeriod),
  );
  const siteName = sites.find((s) => s.code === site)?.name ?? site;
  const boards = [
    { code: "plays", name: "本站播放" },
    { code: "site", name: `${siteName}榜` },
  ] as const;
  const known = board === "plays" ? plays : own;

  return (
    <aside className={styles.panel} aria-label="排行榜">
      <h2 className={styles.title}>排行榜</h2>
      <Switch label="站点" options={sites} value={site} onChange={setSite} />
      <Switch label="类型" options={TYPES} value={type} onChange={setType} />
      <Switch
        label="周期"
        options={PERIODS.filter((p) => type === "mix" || p.code !== "day")}
        value={effectivePeriod}
        onChange={setPeriod}
      />
      <Switch label="榜单来源" options={boards} value={board} onChange={setPicked} segmented />
      {known === undefined ? (
        <p className={styles.empty} aria-busy="true">
          加载中…
        </p>
      ) : known === "failed" ? (
        <p className={styles.empty}>榜单加载失败，请稍后再试</p>
      ) : board === "site" ? (
        known.length ? (
          <SiteChartList list={(known as SourceChartItem[]).slice(0, PANEL_LINES)} site={site} type={type} />
        ) : (
          <p className={styles.empty}>暂未收录{siteName}的榜单</p>
        )
      ) : known.length ? (
        <ol className={styles.list}>
          {(known as ChartItem[]).slice(0, PANEL_LINES).map((item) => (
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
  segmented = false,
}: {
  label: string;
  options: readonly { code: T; name: string }[];
  value: T;
  onChange: (v: T) => void;
  /** Drawn as one two-part control (the board switch) rather than separate pills. */
  segmented?: boolean;
}) {
  const tab = segmented ? styles.segment : styles.tab;
  return (
    <div className={segmented ? styles.segmented : styles.switch} role="tablist" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.code}
          type="button"
          role="tab"
          aria-selected={o.code === value}
          className={o.code === value ? `${tab} ${styles.active}` : tab}
          onClick={() => onChange(o.code)}
        >
          {o.name}
        </button>
      ))}
    </div>
  );
}
