import type { DashboardSeriesAnswer } from "@contracts/dashboard-texts";
import { LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import { type ComposeOption, init, use } from "echarts/core";
import type { LineSeriesOption } from "echarts/charts";
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
import styles from "./dashboard.module.css";

// Only the parts drawn here (ECharts' tree-shakable core): a line chart, its grid, legend and tooltip.
use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

type Option = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

const LINES = [
  { key: "plays", name: "播放", color: "#7c5cff" },
  { key: "views", name: "浏览", color: "#52c41a" },
  { key: "signups", name: "注册", color: "#13a8a8" },
  { key: "searches", name: "搜索", color: "#fa8c16" },
] as const;

function option(series: DashboardSeriesAnswer): Option {
  return {
    color: LINES.map((l) => l.color),
    tooltip: { trigger: "axis" },
    legend: { top: 0, data: LINES.map((l) => l.name) },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: "category", boundaryGap: false, data: series.days.map((d) => d.slice(5)) },
    yAxis: { type: "value", minInterval: 1 },
    series: LINES.map((l) => ({ name: l.name, type: "line", symbolSize: 5, showSymbol: false, data: series[l.key] })),
  };
}

/**
 * The dashboard's 30-day lines. This module (and ECharts with it) is loaded only by the
 * dashboard's lazy import, so no other page's bundle carries the chart library (ADR 0032).
 */
export default function TrendChart({ series }: { series: DashboardSeriesAnswer }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);

  useEffect(() => {
    const el = box.current!;
    const instance = init(el, undefined, { renderer: "svg" });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option(series));
  }, [series]);

  return <div ref={box} className={styles.chart} data-testid="dashboard-chart" role="img" aria-label="近 30 天播放、注册与搜索趋势" />;
}
