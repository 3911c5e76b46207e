import type { ReactNode } from "react";
import styles from "./admin-page.module.css";

/** Title block of a back-office page; the admin issue fills in the tables and forms. */
export function AdminPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section>
      <h2 className={styles.title}>{title}</h2>
      {children}
    </section>
  );
}
