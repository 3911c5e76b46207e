import type { CatalogueItem } from "@contracts/catalogue-item";
import { Link } from "react-router";
import { ListFavoriteButton } from "../library/ListFavoriteButton";
import { PlayButton } from "../player/PlayButton";
import { formatChinaDate, formatCount, formatMonthDay } from "../suite/format";
import styles from "./catalogue.module.css";

/**
 * A numbered line of a list: name, VIP badge, source site, views, date, favourite; `compact`
 * keeps name and day. Wide screens show it on one line; phones give the name up to two lines
 * and the rest a line under it (the `.facts` and `.end` wrappers are `display: contents` on
 * wide screens, so they change nothing there).
 */
export function ItemRow({ item, n, compact }: { item: CatalogueItem; n: number; compact?: boolean }) {
  return (
    <li className={styles.row}>
      <span className={styles.n}>{n}</span>
      <PlayButton item={item} className={styles.play} />
      <Link to={item.url} className={styles.name} title={item.name}>
        {item.name}
      </Link>
      <span className={styles.facts}>
        {item.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
        {compact ? (
          <span className={styles.meta}>{formatMonthDay(item.time)}</span>
        ) : (
          <>
            <span className={styles.site}>{item.website}</span>
            <span className={styles.meta}>{formatCount(item.view_count)}次</span>
            <span className={styles.meta}>{formatChinaDate(item.time)}</span>
          </>
        )}
      </span>
      {/* Favourites are of our catalogue; an external hit (string id) has none. */}
      {typeof item.id === "number" ? (
        <span className={styles.end}>
          <ListFavoriteButton id={item.id} name={item.name} />
        </span>
      ) : null}
    </li>
  );
}

/** A cover card of a grid; covers load lazily. */
export function ItemCard({ item }: { item: CatalogueItem }) {
  return (
    <li className={styles.card}>
      <Link to={item.url} title={item.name}>
        <img src={item.cover} alt="" loading="lazy" width={300} height={300} className={styles.cover} />
        <span className={styles.cardName}>{item.name}</span>
      </Link>
      <span className={styles.cardMeta}>
        <PlayButton item={item} className={styles.cardPlay} />
        {item.artist} · {formatCount(item.view_count)}次
      </span>
    </li>
  );
}

/** Items as cover cards, `columns` (1, 2, 4 or 6) per row; phones show at most 3. */
export function ItemGrid({ items, columns }: { items: CatalogueItem[]; columns: number }) {
  return (
    <ul className={styles.grid} data-columns={columns}>
      {items.map((item) => (
        <ItemCard key={item.id} item={item} />
      ))}
    </ul>
  );
}

/** Items as numbered lines, counting from `first`. */
export function ItemList({ items, first = 1, compact }: { items: CatalogueItem[]; first?: number; compact?: boolean }) {
  return (
    <ol className={styles.list}>
      {items.map((item, i) => (
        <ItemRow key={item.id} item={item} n={first + i} compact={compact} />
      ))}
    </ol>
  );
}
