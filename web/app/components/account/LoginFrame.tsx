import { useEffect } from "react";
import { useBrowserLayoutEffect } from "../../lib/use-browser-layout-effect";
import styles from "./login-frame.module.css";

/**
 * The login dialog's frame while its code loads: the same place, width and tabs, with a
 * spinner, so a tap on 登录/注册 shows something at once (ADR 0063). `early`: the copy in the
 * server's HTML, shown by `<html data-early="login">` (lib/early-taps.ts) before the app has
 * hydrated; the other is the loading state once it has. Drawn, the loading one takes over from
 * the early one before the browser paints, so there is never a gap or two frames.
 */
export function LoginFrame({ early, onClose }: { early?: boolean; onClose: () => void }) {
  useBrowserLayoutEffect(() => {
    if (!early) document.documentElement.removeAttribute("data-early");
  }, [early]);
  useEffect(() => {
    if (early) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [early, onClose]);
  return (
    <div className={early ? `${styles.layer} ${styles.early}` : styles.layer} data-login-frame={early ? "early" : "loading"}>
      <div className={styles.mask} onClick={onClose} data-early-close="" />
      <div className={styles.box} role="dialog" aria-modal="true" aria-label="登录/注册" aria-busy="true">
        <div className={styles.tabs} aria-hidden="true">
          <span className={styles.tabOn}>登录</span>
          <span>注册</span>
        </div>
        <button type="button" className={styles.close} onClick={onClose} aria-label="关闭" data-early-close="">
          ×
        </button>
        <p className={styles.loading} role="status">
          <span className={styles.spinner} aria-hidden="true" />
          加载中…
        </p>
      </div>
    </div>
  );
}
