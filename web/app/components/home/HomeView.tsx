import type { CategoryLatest, HomeData as HomeAnswer } from "@contracts/home";
import { useState } from "react";
import { Link } from "react-router";
import { ItemGrid, ItemList } from "../catalogue/CatalogueItems";
import { PlayAll, playableEntries } from "../lists/PlayAll";
import { useSiteSettings } from "../../lib/site-settings";
import { ChartPanel } from "../charts/ChartPanel";
import type { PanelCharts } from "../charts/panel-charts";
import { Carousel } from "./Carousel";
import { SearchPanel } from "./SearchPanel";
import styles from "./home.module.css";

const TABS = [
  { code: "recommend", name: "推荐" },
  { code: "favorites", name: "收藏" },
] as const;

/** The home data as the page gets it: of the charts, those the panel starts with. */
export type HomeData = Omit<HomeAnswer, "side"> & { side: PanelCharts };

/** Home: search on top, then a 16/8 split of carousel, tabs and latest lists beside the charts. */
export function HomeView({ data }: { data: HomeData }) {
  const site = useSiteSettings();
  return (
    <>
      <h1 className={styles.visuallyHidden}>{site.title}：全网DJ串烧套曲与单曲搜索</h1>
      <SearchPanel channels={data.channel} sites={data.siteweblist} />
      <div className={styles.columns}>
        <div className={styles.main}>
          <Carousel slides={data.indexfocus} />
          <CategoryStrip categories={data.categories} />
          <TabbedLists data={data} />
          {data.suitelist.map((group) => (
            <LatestSection key={group.diyname} section={group} />
          ))}
          <div className={styles.categoryBoxes}>
            {data.suitelistx.map((category) => (
              <LatestSection key={category.diyname} section={category} compact />
            ))}
          </div>
        </div>
        <div className={styles.side}>
          <ChartPanel side={data.side} pluginSites={data.siteweblist} />
          <Partners data={data} />
        </div>
      </div>
    </>
  );
}

/** Every category as a chip in one row that scrolls sideways. */
function CategoryStrip({ categories }: { categories: HomeData["categories"] }) {
  if (categories.length === 0) return null;
  return (
    <nav className={styles.strip} aria-label="分类">
      {categories.map((c) => (
        <Link key={c.diyname} to={c.cidurl} className={styles.chip}>
          {c.name}
        </Link>
      ))}
    </nav>
  );
}

function TabbedLists({ data }: { data: HomeData }) {
  const [tab, setTab] = useState<(typeof TABS)[number]["code"]>("recommend");
  const items = tab === "recommend" ? data.data : data.favorites;
  return (
    <section className={`${styles.box} ${styles.tabbed}`}>
      <div className={styles.tabs} role="tablist" aria-label="推荐与收藏">
        {TABS.map((t) => (
          <button key={t.code} type="button" role="tab" aria-selected={tab === t.code} className={tab === t.code ? styles.tabOn : styles.tab} onClick={() => setTab(t.code)}>
            {t.name}
          </button>
        ))}
      </div>
      {items.length ? <ItemGrid items={items} columns={4} /> : <p className={styles.empty}>暂无内容</p>}
    </section>
  );
}

/** The newest items of a menu group (a list) or of a category (compact), with a 'more' link. */
function LatestSection({ section, compact }: { section: CategoryLatest; compact?: boolean }) {
  return (
    <section className={`${styles.box} ${styles.latest} ${compact ? styles.compact : ""}`} aria-label={section.name}>
      <header className={styles.boxHead}>
        <h2 className={styles.boxTitle}>{compact ? section.name : `最新${section.name}`}</h2>
        {compact ? null : <PlayAll entries={playableEntries(section.list)} label={`最新${section.name}`} />}
        <Link to={section.cidurl} className={styles.more} aria-label={`更多${section.name}`}>
          更多 ›
        </Link>
      </header>
      {section.list.length ? <ItemList items={section.list} compact={compact} /> : <p className={styles.empty}>暂无内容</p>}
    </section>
  );
}

function Partners({ data }: { data: HomeData }) {
  const { partnerText } = useSiteSettings();
  if (data.indexweb.length === 0 && !partnerText.trim()) return null;
  return (
    <section className={styles.box} aria-label="合作站点">
      <h2 className={styles.boxTitle}>合作站点</h2>
      {partnerText.trim() ? <p className={styles.partnerText} data-testid="partner-text">{partnerText}</p> : null}
      <ul className={styles.partners}>
        {data.indexweb.map((p) => (
          <li key={p.url}>
            <a href={p.url} target="_blank" rel="noopener noreferrer" title={p.name}>
              {p.image ? <img src={p.image} alt={p.name} width={150} height={50} loading="lazy" /> : p.name}
            </a>
          </li>
        ))}
      </ul>
      <p className={styles.total}>本站已收录 {data.total} 首DJ舞曲</p>
    </section>
  );
}
