import { footerLines, type SiteSettings } from "@contracts/site";
import styles from "./site-footer.module.css";

/** The footer of every public page: the back office's 站点设置 text, line breaks kept, and its © line. */
export function SiteFooter({ site }: { site: Pick<SiteSettings, "footer" | "title"> }) {
  return (
    <footer className={styles.footer} data-testid="site-footer">
      {footerLines(site).map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </footer>
  );
}
