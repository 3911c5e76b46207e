import type { SiteSettings } from "@contracts/site";
import styles from "./site-footer.module.css";

/** The footer of every public page: the back office's 站点设置 text, line breaks kept. */
export function SiteFooter({ site }: { site: Pick<SiteSettings, "footer"> }) {
  if (!site.footer.trim()) return null;
  return (
    <footer className={styles.footer} data-testid="site-footer">
      {site.footer.split("\n").map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </footer>
  );
}
