import type { ChartType } from "@contracts/chart-keys";
// Type-only: erased from the bundle, so no zod reaches the browser.
import type { SourceChartItem } from "@contracts/charts";
import { Link } from "react-router";
import { PlayAll, playableEntries } from "../lists/PlayAll";
import { PlayButton } from "../player/PlayButton";
import styles from "./charts.module.css";
import { siteChartPlayable } from "./panel-charts";

/**
 * A site's own chart (board=site): lines in our catalogue open their page here; the others open
 * the item's page on its site in a new tab (we search, the site hosts). Each plays in the
 * global player: ours from our media, the others through the source-play route.
 */
export function SiteChartList({ list, site, type }: { list: readonly SourceChartItem[]; site: string; type: ChartType }) {
  return (
    <>
      <PlayAll entries={playableEntries(list.map((item) => siteChartPlayable(item, site, type)))} label="榜单" />
      <ol className={styles.list}>
        {list.map((item) => (
          <li key={`${item.rank}-${item.id}`} className={styles.row}>
            <span className={item.rank <= 3 ? `${styles.rank} ${styles.top}` : styles.rank}>{item.rank}</span>
            {item.external ? (
              <a
                href={item.url}
                target="_blank"
                rel="noopener noreferrer"
                className={styles.name}
                title={`${item.name}（在${item.website}打开）`}
              >
                {item.name}
              </a>
            ) : (
              <Link to={item.url} className={styles.name} title={item.name}>
                {item.name}
              </Link>
            )}
            {item.external ? <span className={styles.source}>{item.website}</span> : <span className={styles.ours}>本站</span>}
            {item.palyurl ? <PlayButton item={siteChartPlayable(item, site, type)} className={styles.play} /> : null}
          </li>
        ))}
      </ol>
    </>
  );
}
