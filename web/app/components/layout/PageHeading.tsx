import type { ReactNode } from "react";
import styles from "./page-heading.module.css";

/** A page's visible title (its <title> comes from the route's meta). */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className={styles.heading}>
      <h1 className={styles.title}>{title}</h1>
      {children ? <div className={styles.sub}>{children}</div> : null}
    </header>
  );
}
