import type { SearchChannel } from "@contracts/home";
import { SEARCH_KEYWORD_MAX, searchMessages } from "@contracts/search-texts";
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { onDemand } from "../../lib/on-demand";
import { useSiteMessage } from "../feedback";
import styles from "./home.module.css";
// Type-only: the search's code is a chunk of its own (search-engine.ts), loaded on intent.
import type { HomeSearch, KnownSite } from "./search-api";
import type { ShownSearch } from "./search-stream";

type SearchEngine = typeof import("./search-engine");
const searchEngine = onDemand(() => import("./search-engine"));

const TYPES = [
  { code: "mp3", name: "音频" },
  { code: "mp4", name: "视频" },
] as const;

/**
 * The home search box: source-site selector, mp3/mp4 toggle, keyword. A blank keyword warns
 * and sends nothing; results show 5 a page with a pager only past one page. `sites` (the home
 * answer's site list) names and pictures the sources of hits and of failures.
 *
 * Where the browser reads a fetched body as it arrives, the search is streamed (ADR 0050):
 * 本站's hits show at once and each site's are appended as it answers; elsewhere, or when the
 * stream is refused before its first event, the merged answer of GET /api/forntend/indexsearch.
 * The code that does this and draws the results loads on the first focus or press in the box
 * (ADR 0077): it is not part of the page's first load.
 */
// One empty list for every render: the memoized rows compare their props by identity.
const NO_SITES: readonly KnownSite[] = [];

export function SearchPanel({ channels, sites = NO_SITES }: { channels: SearchChannel[]; sites?: readonly KnownSite[] }) {
  const message = useSiteMessage();
  const [keyword, setKeyword] = useState("");
  const [channel, setChannel] = useState("");
  const [type, setType] = useState<HomeSearch["type"]>("mp3");
  const [result, setResult] = useState<ShownSearch | null>(null);
  const [loading, setLoading] = useState(false);
  const [engine, setEngine] = useState(searchEngine.loaded);
  // Answers of an older query that arrive late must not replace a newer one.
  const latest = useRef(0);
  const keywordBox = useRef<HTMLInputElement>(null);
  // A new search (or page) keeps the results' height until all its sources answered: its first
  // source's rows replace more rows, and what is below would move up, then down again with each
  // source (and the latest lists, brought near the view, would be laid out and painted for it).
  const resultsBox = useRef<HTMLDivElement>(null);
  const [heldHeight, setHeldHeight] = useState(0);
  const closeStream = useRef<(() => void) | null>(null);
  const stopStream = () => {
    closeStream.current?.();
    closeStream.current = null;
  };
  useEffect(() => stopStream, []);
  // Typed into (or tapped) before the page hydrated: the search is about to be asked.
  useEffect(() => {
    const section = keywordBox.current?.closest("section");
    if (keywordBox.current?.value || section?.contains(document.activeElement)) searchEngine.preload();
  }, []);

  function run(query: HomeSearch) {
    const ticket = ++latest.current;
    stopStream();
    setLoading(true);
    setHeldHeight(resultsBox.current?.offsetHeight ?? 0);
    // Loaded already (the usual case: focusing the box fetched it): the request leaves at once.
    const ready = searchEngine.loaded();
    if (ready) {
      setEngine(ready);
      return start(ready, query, ticket);
    }
    searchEngine.load().then(
      (loaded) => {
        if (ticket !== latest.current) return;
        setEngine(loaded);
        start(loaded, query, ticket);
      },
      () => {
        if (ticket !== latest.current) return;
        setLoading(false);
        message.error(searchMessages.searchFailed);
      },
    );
  }

  function start({ canStream, streamSearch, applySource, applyDone, applyBroken }: SearchEngine, query: HomeSearch, ticket: number) {
    if (!canStream()) return void runMerged(query, ticket);
    // For the bench and the e2e test: when the request left, when each source's hits painted.
    for (const mark of performance.getEntriesByType("mark")) if (mark.name.startsWith("search-")) performance.clearMarks(mark.name);
    performance.mark("search-request");
    closeStream.current = streamSearch(query, {
      onSource(event) {
        if (ticket !== latest.current) return;
        // Rendered in the task that read the event, not in a task React schedules after it: one
        // hop less between the site's answer and its rows, which a frame beginning meanwhile
        // would otherwise delay by a whole frame (ADR 0080).
        flushSync(() => {
          setLoading(false);
          setResult((shown) => applySource(shown, query, event));
        });
      },
      onDone(done) {
        if (ticket === latest.current) setResult((shown) => applyDone(shown, done));
      },
      onBroken() {
        if (ticket === latest.current) setResult(applyBroken);
      },
      onFallback() {
        if (ticket === latest.current) void runMerged(query, ticket);
      },
    });
  }

  async function runMerged(query: HomeSearch, ticket: number) {
    try {
      const data = await (await searchEngine.load()).searchCatalogue(query);
      if (ticket === latest.current) setResult({ query, data, sources: null, done: true });
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

  // Stable while the search shown is the same: SearchResults (memoized) does not render again
  // when only the button's 搜索中 changes (a new search's submit re-rendered the last one's rows).
  const shownQuery = result?.query;
  const onPage = useCallback((page: number) => shownQuery && run({ ...shownQuery, page }), [shownQuery]);

  /** Escape closes the results and puts the focus back in the keyword box. */
  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key !== "Escape" || !result) return;
    event.preventDefault();
    latest.current++;
    stopStream();
    setResult(null);
    setLoading(false);
    keywordBox.current?.focus();
  }

  return (
    <section className={styles.search} aria-label="搜索" onKeyDown={onKeyDown} onFocus={searchEngine.preload} onPointerDown={searchEngine.preload}>
      <form className={styles.searchForm} role="search" onSubmit={submit}>
        <select className={styles.channel} aria-label="搜索来源" value={channel} onChange={(e) => setChannel(e.target.value)}>
          {channels.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        <input
          ref={keywordBox}
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
      {result && engine ? <engine.SearchResults result={result} sites={sites} onPage={onPage} heldHeight={heldHeight} ref={resultsBox} /> : null}
    </section>
  );
}
