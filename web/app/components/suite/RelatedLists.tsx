import type { CatalogueItem } from "@contracts/catalogue-item";
// Type-only: erased from the bundle, so no zod reaches the browser.
import type { Related } from "@contracts/related";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { apiGet } from "../../lib/api";
import { formatCount } from "./format";
import styles from "./suite.module.css";

type Loaded = Related | "failed" | undefined;

/**
 * 该DJ的更多作品 and 相关推荐 below the file tree (ADR 0062). Read after hydration from
 * GET /api/forntend/related, so the kept page stays the same bytes whatever is added elsewhere.
 * Plain links: the page's own player controls are the ones that play here.
 */
export function RelatedLists({ id }: { id: number }) {
  const [loaded, setLoaded] = useState<{ id: number; data: Loaded }>({ id, data: undefined });
  useEffect(() => {
    let current = true;
    apiGet<Related>(`/api/forntend/related?id=${id}`, null).then(
      (body) => current && setLoaded({ id, data: body?.code === 1 ? body.data : "failed" }),
      () => current && setLoaded({ id, data: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [id]);
  const data = loaded.id === id ? loaded.data : undefined;
  if (data === "failed") return null;
  return (
    <div className={styles.relatedColumns}>
      <RelatedBox title="该DJ的更多作品" note={data?.artist} list={data?.byArtist} empty="暂无该DJ的其他作品" />
      <RelatedBox title="相关推荐" list={data?.related} empty="暂无相关推荐" />
    </div>
  );
}

function RelatedBox({ title, note, list, empty }: { title: string; note?: string; list?: CatalogueItem[]; empty: string }) {
  return (
    <section className={styles.panel} aria-label={title} data-related={title}>
      <h2 className={styles.panelTitle}>
        {title} {note ? <span className={styles.muted}>{note}</span> : null}
      </h2>
      {list === undefined ? (
        <p className={styles.empty} aria-busy="true">
          加载中…
        </p>
      ) : list.length === 0 ? (
        <p className={styles.empty}>{empty}</p>
      ) : (
        <ol className={styles.relatedList}>
          {list.map((item) => (
            <li key={item.id} className={styles.relatedRow}>
              <Link to={item.url} className={styles.relatedName} title={item.name}>
                {item.name}
              </Link>
              <span className={styles.relatedMeta}>
                {item.artist} · {formatCount(item.view_count)}次
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
