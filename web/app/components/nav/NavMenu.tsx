import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { activeNavKey, type NavItem } from "./nav-items";
import styles from "./nav-menu.module.css";

/**
 * Menu items with hover/focus submenus in plain CSS: no menu library in the public bundle,
 * identical markup on server and client, nothing measured after hydration (no layout shift).
 */
export function NavMenu({ items, pathname }: { items: readonly NavItem[]; pathname: string }) {
  const active = activeNavKey(items, pathname);
  const list = useRef<HTMLUListElement>(null);
  // A phone's menu scrolls sideways: the current page's item is brought into the row's view.
  useEffect(() => {
    const row = list.current;
    const on = row?.querySelector<HTMLElement>(":scope > li > [aria-current=page], :scope > li:has([aria-current=page]) > a");
    if (!row || !on || row.scrollWidth <= row.clientWidth) return;
    const left = on.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
    if (left < row.scrollLeft || left + on.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left - 16;
  }, [active]);
  const isActive = (item: NavItem) =>
    item.to === active || Boolean(item.items?.some((sub) => sub.to === active));
  return (
    <nav className={styles.nav} aria-label="主导航">
      <ul className={styles.list} ref={list}>
        {items.map((item) => (
          <li key={item.to} className={item.items?.length ? styles.parent : styles.item}>
            <Link
              to={item.to}
              className={isActive(item) ? `${styles.link} ${styles.active}` : styles.link}
              aria-current={item.to === active ? "page" : undefined}
            >
              {item.label}
            </Link>
            {item.items?.length ? (
              <ul className={styles.sub}>
                {item.items.map((sub) => (
                  <li key={sub.to}>
                    <Link
                      to={sub.to}
                      className={
                        sub.to === active ? `${styles.subLink} ${styles.active}` : styles.subLink
                      }
                      aria-current={sub.to === active ? "page" : undefined}
                    >
                      {sub.label}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
