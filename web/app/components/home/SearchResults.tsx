import type { CatalogueItem } from "@contracts/catalogue-item";
import { showDefaultCover } from "../../lib/default-cover";
import { useBrowserLayoutEffect } from "../../lib/use-browser-layout-effect";
import { DEFAULT_COVER } from "@contracts/player-texts";
import { memo, useRef } from "react";
import { Link } from "react-router";
import { PlayButton } from "../player/PlayButton";
import { formatChinaDate } from "../suite/format";
import { Pager } from "../lists/Pager";
import { PlayAll, playableEntries } from "../lists/PlayAll";
import styles from "./home.module.css";
import { HitPlaces } from "./HitPlaces";
import { failedSourcesNotice, isExternalHit, type KnownSite, siteLogo, type SourceState, stateText } from "./search-api";
import type { ShownSearch } from "./search-stream";

/**
 * One page of hits from our catalogue and the external sites, merged by the server. Every hit
 * names its site (logo and name); an external one links out to its page on that site, since we
 * only search and downloads happen there. Sources that failed are named in one quiet line.
 *
 * Streamed (ADR 0050): each source's state in one row of fixed height, hits appended below those
 * shown, and the notice after the list, so nothing above what the visitor reads ever moves.
 */
export const SearchResults = memo(function SearchResults({
  result: { query, data, sources, done },
  sites,
  onPage,
  heldHeight,
  ref,
}: {
  result: ShownSearch;
  sites: readonly KnownSite[];
  onPage: (page: number) => void;
  /** The last search's height (px), kept while this one streams in: see SearchPanel. */
  heldHeight?: number;
  ref?: React.Ref<HTMLDivElement>;
}) {
  const notice = failedSourcesNotice(data, sites);
  usePaintMarks(query, sources);
  const noticeLine = notice ? (
    <p className={styles.sourceNotice} role="status" data-source-notice>
      {notice}
    </p>
  ) : null;
  const count = `${data.total}${data.capped ? "+" : ""}`;
  return (
    <div className={styles.results} aria-live="polite" aria-busy={!done} ref={ref} style={heldHeight && !done ? { minHeight: heldHeight } : undefined}>
      <div className={styles.resultsBar}>
        <p className={styles.resultsHead}>{done ? `“${query.keyword}” 找到 ${count} 条结果` : `“${query.keyword}” 搜索中，已找到 ${count} 条`}</p>
        {/* From the first hits on, in a bar of fixed height: appended hits move nothing (ADR 0050). */}
        <PlayAll entries={playableEntries(data.list)} label="本页搜索结果" />
      </div>
      {sources && sources.length > 1 ? <SourceStates sources={sources} /> : null}
      {sources ? null : noticeLine}
      {data.list.length === 0 ? (
        <p className={styles.empty}>{done ? "没有找到相关内容，换个关键词试试" : "正在搜索其他来源…"}</p>
      ) : (
        <ol className={styles.resultList} start={(data.page - 1) * data.pageSize + 1}>
          {data.list.map((item) => (
            <SearchHit key={`${item.source}-${item.id}`} item={item} sites={sites} />
          ))}
        </ol>
      )}
      {/* Under the rows while sources are out: the space kept from the last search is not a blank. */}
      {!done && data.list.length > 0 ? <p className={styles.searchingMore}>正在搜索其他来源…</p> : null}
      {sources ? noticeLine : null}
      <Pager page={data.page} total={data.total} pageSize={data.pageSize} label="搜索结果分页" onPage={onPage} />
    </div>
  );
});

/** 本站 5 条结果 · DJUU 搜索中 · 172Mix 已跳过 · 清风DJ 失败: one row that scrolls sideways, never wraps. */
function SourceStates({ sources }: { sources: SourceState[] }) {
  return (
    <ul className={styles.sourceStates} aria-label="各来源搜索状态" data-source-states>
      {sources.map((s) => (
        <li key={s.source} className={styles.sourceState} data-source-state={s.source} data-state={s.state} title={s.reason}>
          <span className={styles.sourceStateName}>{s.name}</span> {stateText(s)}
        </li>
      ))}
    </ul>
  );
}

/**
 * `search-source:{code}` when a source's hits have painted, and `search-first-results` for the
 * first: the bench and the e2e test read them. Set right after the frame that paints the commit
 * (afterNextPaint): a passive effect's animation frame was that frame's when React ran the effect
 * before it, but the next one (~16 ms late) when React ran it after the paint.
 */
function usePaintMarks(query: ShownSearch["query"], sources: SourceState[] | null) {
  const marked = useRef<{ query: ShownSearch["query"] | null; codes: Set<string> }>({ query: null, codes: new Set() });
  useBrowserLayoutEffect(() => {
    if (!sources) return;
    if (marked.current.query !== query) marked.current = { query, codes: new Set() };
    const fresh = sources.filter((s) => s.state !== "searching" && !marked.current.codes.has(s.source));
    if (fresh.length === 0) return;
    const first = marked.current.codes.size === 0;
    for (const s of fresh) marked.current.codes.add(s.source);
    afterNextPaint(() => {
      if (first) performance.mark("search-first-results");
      for (const s of fresh) performance.mark(`search-source:${s.source}`);
    });
  }, [query, sources]);
}

/** Calls back once the next frame has been painted: its animation frame, then a task after that frame's rendering. */
function afterNextPaint(callback: () => void) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      callback();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A site's cover that does not load (moved, hot-link refused) gives way to ours, once. Memoized:
 * each source's event keeps the rows shown as they were (the same objects), so only its new rows
 * and the rows it adds places to render.
 */
const SearchHit = memo(function SearchHit({ item, sites }: { item: CatalogueItem; sites: readonly KnownSite[] }) {
  const external = isExternalHit(item);
  const logo = siteLogo(item, sites);
  // A site's search page knows no date or category: show what there is.
  // Our pages are https and the CSP takes https images only: a site's http cover would be refused.
  const cover = item.cover && !/^http:/iu.test(item.cover) ? item.cover : DEFAULT_COVER;
  const meta = [item.artist, item.category, item.time > 0 ? formatChinaDate(item.time) : ""].filter(Boolean).join(" · ");
  return (
    <li className={styles.result} data-source={item.source}>
      <PlayButton item={item} className={styles.resultPlay} />
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
        {/* The places share the meta's line: one found later (streamed) grows no row. */}
        <div className={styles.resultSub}>
          {meta ? <span className={styles.resultMeta}>{meta}</span> : null}
          <HitPlaces item={item} />
        </div>
      </div>
      {/* One column on wide screens; on a phone the end of the meta's line. */}
      <span className={styles.resultEnd}>
        {item.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
        <span className={styles.site} data-site>
          {logo ? <img src={logo} alt="" width={42} height={14} className={styles.siteLogo} loading="lazy" decoding="async" /> : null}
          <span className={styles.siteName}>
            {external ? <span className={styles.sourceLabel}>来源</span> : null}
            {item.website}
          </span>
        </span>
      </span>
    </li>
  );
});
