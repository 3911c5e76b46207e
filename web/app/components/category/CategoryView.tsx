import type { CategoryPage as CategoryAnswer } from "@contracts/category";
import { useState } from "react";
import { Link } from "react-router";
import { ChartPanel } from "../charts/ChartPanel";
import type { PanelCharts } from "../charts/panel-charts";
import { ItemGrid, ItemList } from "../catalogue/CatalogueItems";
import { Pager } from "../lists/Pager";
import { PlayAll, playableEntries } from "../lists/PlayAll";
import styles from "./category.module.css";

/** 1, 2, 4 or 6 per row, or a list (spec section 9). */
const LAYOUTS = [
  { code: "list", name: "列表" },
  { code: "1", name: "1列" },
  { code: "2", name: "2列" },
  { code: "4", name: "4列" },
  { code: "6", name: "6列" },
] as const;
type Layout = (typeof LAYOUTS)[number]["code"];

/** The category data as the page gets it: of the charts, those the panel starts with. */
export type CategoryPage = Omit<CategoryAnswer, "side"> & { side: PanelCharts };

/** Category page: breadcrumb, sort tabs, items (latest style when model_id is 2), pages, charts. */
export function CategoryView({ page, filter }: { page: CategoryPage; filter: "new" | "hot" }) {
  const [layout, setLayout] = useState<Layout>(page.model_id === 2 ? "list" : "4");
  const href = (p: number, f = filter) => `${page.cidurl}?${new URLSearchParams({ ...(f === "hot" ? { filter: f } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;

  return (
    <div className={styles.columns}>
      <section className={styles.main}>
        <nav className={styles.breadcrumb} aria-label="面包屑">
          <Link to="/">首页</Link>
          <span aria-hidden>/</span>
          <span>{page.categoryname}</span>
        </nav>
        <header className={styles.bar}>
          <h1 className={styles.title}>
            {page.categoryname} <span className={styles.total}>共 {page.total} 首</span>
          </h1>
          <div className={styles.tools}>
            <Link to={href(1, "new")} className={filter === "new" ? styles.on : undefined}>最新</Link>
            <Link to={href(1, "hot")} className={filter === "hot" ? styles.on : undefined}>最热</Link>
            <span className={styles.sep} aria-hidden />
            {LAYOUTS.map((l) => (
              <button key={l.code} type="button" onClick={() => setLayout(l.code)} aria-pressed={layout === l.code} className={layout === l.code ? styles.on : undefined}>
                {l.name}
              </button>
            ))}
          </div>
        </header>
        <PlayAll entries={playableEntries(page.list)} label={`${page.categoryname}本页`} />
        {page.list.length === 0 ? (
          <p className={styles.empty}>该分类暂无内容</p>
        ) : layout === "list" ? (
          <ItemList items={page.list} first={(page.page - 1) * page.pageSize + 1} />
        ) : (
          <ItemGrid items={page.list} columns={Number(layout)} />
        )}
        <Pager page={page.page} total={page.total} pageSize={page.pageSize} label="分页" href={href} />
      </section>
      <ChartPanel side={page.side} />
    </div>
  );
}
