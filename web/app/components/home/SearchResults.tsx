import type { CatalogueItem } from "@contracts/catalogue-item";
import { showDefaultCover } from "../../lib/default-cover";
import { DEFAULT_COVER } from "@contracts/player-texts";
import type { SearchResult } from "@contracts/search";
import { Link } from "react-router";
import { PlayButton } from "../player/PlayButton";
import { formatChinaDate } from "../suite/format";
import styles from "./home.module.css";
import { failedSourcesNotice, type HomeSearch, isExternalHit, type KnownSite, siteLogo } from "./search-api";

/**
 * One page of hits from our catalogue and the external sites, merged by the server. Every hit
 * names its site (logo and name); an external one links out to its page on that site, since we
 * only search and downloads happen there. Sources that failed are named in one quiet line.
 */
export function SearchResults({
  result: { query, data },
  sites,
  onPage,
}: {
  result: { query: HomeSearch; data: SearchResult };
  sites: readonly KnownSite[];
  onPage: (page: number) => void;
}) {
  const pages = Math.ceil(data.total / data.pageSize);
  const notice = failedSourcesNotice(data, sites);
  return (
    <div className={styles.results} aria-live="polite">
      <p className={styles.resultsHead}>
        “{query.keyword}” 找到 {data.total}
        {data.capped ? "+" : ""} 条结果
      </p>
      {notice ? (
        <p className={styles.sourceNotice} role="status" data-source-notice>
          {notice}
        </p>
      ) : null}
      {data.list.length === 0 ? (
        <p className={styles.empty}>没有找到相关内容，换个关键词试试</p>
      ) : (
        <ol className={styles.resultList} start={(data.page - 1) * data.pageSize + 1}>
          {data.list.map((item) => (
            <SearchHit key={`${item.source}-${item.id}`} item={item} sites={sites} />
          ))}
        </ol>
      )}
      {data.total > data.pageSize ? (
        <nav className={styles.pager} aria-label="搜索结果分页">
          <button type="button" disabled={data.page <= 1} onClick={() => onPage(data.page - 1)}>
            上一页
          </button>
          <span>
            第 {data.page} / {pages} 页
          </span>
          <button type="button" disabled={data.page >= pages} onClick={() => onPage(data.page + 1)}>
            下一页
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** A site's cover that does not load (moved, hot-link refused) gives way to ours, once. */
function SearchHit({ item, sites }: { item: CatalogueItem; sites: readonly KnownSite[] }) {
  const external = isExternalHit(item);
  const logo = siteLogo(item, sites);
  // A site's search page knows no date or category: show what there is.
  // Our pages are https and the CSP takes https images only: a site's http cover would be refused.
  const cover = item.cover && !/^http:/iu.test(item.cover) ? item.cover : DEFAULT_COVER;
  const meta = [item.artist, item.category, item.time > 0 ? formatChinaDate(item.time) : ""].filter(Boolean).join(" · ");
  return (
    <li className={styles.result} data-source={item.source}>
      <PlayButton item={item} />
      <img src={cover} alt="" width={48} height={48} className={styles.resultCover} loading="lazy" onError={showDefaultCover} />
      <div className={styles.resultText}>
        {external ? (
          <a href={item.url} target="_blank" rel="noopener noreferrer nofollow" className={styles.resultName} title={`${item.name}（在${item.website}打开）`}>
            {item.name}
          </a>
        ) : (
          <Link to={item.url} className={styles.resultName} title={item.name}>
            {item.name}
          </Link>
        )}
        {meta ? <span className={styles.resultMeta}>{meta}</span> : null}
      </div>
      {item.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
      <span className={styles.site} data-site>
        {logo ? <img src={logo} alt="" width={42} height={14} className={styles.siteLogo} loading="lazy" decoding="async" /> : null}
        <span className={styles.siteName}>
          {external ? <span className={styles.sourceLabel}>来源</span> : null}
          {item.website}
        </span>
      </span>
    </li>
  );
}
