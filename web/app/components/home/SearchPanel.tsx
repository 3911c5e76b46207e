import type { SearchChannel } from "@contracts/home";
import { SEARCH_KEYWORD_MAX, searchMessages } from "@contracts/search-texts";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { useSiteMessage } from "../feedback";
import { PlayButton } from "../player/PlayButton";
import { formatChinaDate } from "../suite/format";
import styles from "./home.module.css";
import type { SearchResult } from "@contracts/search";
import { type HomeSearch, searchCatalogue } from "./search-api";

const TYPES = [
  { code: "mp3", name: "音频" },
  { code: "mp4", name: "视频" },
] as const;

/**
 * The home search box: source-site selector, mp3/mp4 toggle, keyword. A blank keyword warns
 * and sends nothing; results show 5 a page with a pager only past one page.
 */
export function SearchPanel({ channels }: { channels: SearchChannel[] }) {
  const message = useSiteMessage();
  const [keyword, setKeyword] = useState("");
  const [channel, setChannel] = useState("");
  const [type, setType] = useState<HomeSearch["type"]>("mp3");
  const [result, setResult] = useState<{ query: HomeSearch; data: SearchResult } | null>(null);
  const [loading, setLoading] = useState(false);
  // Answers of an older query that arrive late must not replace a newer one.
  const latest = useRef(0);

  async function run(query: HomeSearch) {
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const data = await searchCatalogue(query);
      if (ticket === latest.current) setResult({ query, data });
    } catch (err) {
      if (ticket === latest.current) message.error((err as Error).message || searchMessages.searchFailed);
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const trimmed = keyword.trim();
    if (!trimmed) {
      message.warning(searchMessages.keywordRequired);
      return;
    }
    void run({ keyword: trimmed, channel, type, page: 1 });
  }

  return (
    <section className={styles.search} aria-label="搜索">
      <form className={styles.searchForm} role="search" onSubmit={submit}>
        <select className={styles.channel} aria-label="搜索来源" value={channel} onChange={(e) => setChannel(e.target.value)}>
          {channels.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        <input
          className={styles.keyword}
          type="search"
          name="keyword"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          placeholder="搜索DJ串烧、单曲、歌手，支持拼音和首字母"
          aria-label="搜索关键词"
          maxLength={SEARCH_KEYWORD_MAX}
          enterKeyHint="search"
        />
        <div className={styles.types} role="radiogroup" aria-label="类型">
          {TYPES.map((t) => (
            <button key={t.code} type="button" role="radio" aria-checked={type === t.code} className={type === t.code ? styles.typeOn : undefined} onClick={() => setType(t.code)}>
              {t.name}
            </button>
          ))}
        </div>
        <button className={styles.submit} type="submit" disabled={loading}>
          {loading ? "搜索中..." : "搜索"}
        </button>
      </form>
      {result ? <SearchResults result={result} onPage={(page) => void run({ ...result.query, page })} /> : null}
    </section>
  );
}

function SearchResults({ result: { query, data }, onPage }: { result: { query: HomeSearch; data: SearchResult }; onPage: (page: number) => void }) {
  const pages = Math.ceil(data.total / data.pageSize);
  return (
    <div className={styles.results} aria-live="polite">
      <p className={styles.resultsHead}>
        “{query.keyword}” 找到 {data.total}
        {data.capped ? "+" : ""} 条结果
      </p>
      {data.list.length === 0 ? (
        <p className={styles.empty}>没有找到相关内容，换个关键词试试</p>
      ) : (
        <ol className={styles.resultList} start={(data.page - 1) * data.pageSize + 1}>
          {data.list.map((item) => (
            <li key={`${item.source}-${item.id}`} className={styles.result}>
              <PlayButton item={item} />
              <img src={item.cover} alt="" width={48} height={48} className={styles.resultCover} loading="lazy" />
              <div className={styles.resultText}>
                <Link to={item.url} className={styles.resultName} title={item.name}>
                  {item.name}
                </Link>
                <span className={styles.resultMeta}>
                  {item.artist} · {item.category || item.website} · {formatChinaDate(item.time)}
                </span>
              </div>
              {item.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
              <span className={styles.site}>{item.website}</span>
            </li>
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
