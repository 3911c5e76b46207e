import { useEffect } from "react";
import { useLocation } from "react-router";
import { checkSession } from "../../guards/accounts";
import { browserGuardDeps } from "../../guards/browser";
import { useSession } from "../../session/store";
import { useLoginDialog } from "../account/login-dialog-store";
import { LazyPart } from "../LazyPart";
import { SiteBrand } from "./Logo";
import type { NavItem } from "./nav-items";
import { NavMenu } from "./NavMenu";
import styles from "./top-nav.module.css";

// Only logged-in visitors need the dropdown; guests never download it.
const loadUserMenu = () => import("./UserMenu");

/** Top navigation bar of the default and user layouts (spec section 2, Top nav). */
export function TopNav({ items }: { items: readonly NavItem[] }) {
  const { pathname } = useLocation();
  const user = useSession((s) => s.user);
  const showLogin = useLoginDialog((s) => s.show);

  // Spec section 4: the navbar checks the login state on mount.
  useEffect(() => {
    void checkSession(browserGuardDeps());
  }, []);

  return (
    <header className={styles.bar}>
      <div className={styles.inner}>
        <SiteBrand className={styles.brand} nameClassName={styles.name} />
        <NavMenu items={items} pathname={pathname} />
        <div className={styles.actions}>
          {user ? (
            <LazyPart
              load={loadUserMenu}
              props={{ user }}
              fallback={<span className={styles.userPending} />}
            />
          ) : (
            // Plain (antd's Button put ~38 KB of its styles inline in every public page), and a real
            // link to /login that the app turns into the dialog: it works before hydration and
            // without scripts; a tap before hydration opens the dialog's frame at once (ADR 0063).
            <a
              href="/login"
              role="button"
              aria-haspopup="dialog"
              className={styles.login}
              data-early-tap="login"
              onClick={(e) => {
                if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                showLogin("login");
              }}
              onKeyDown={(e) => {
                // A button's Space (a link's Enter already clicks).
                if (e.key !== " ") return;
                e.preventDefault();
                showLogin("login");
              }}
            >
              登录/注册
            </a>
          )}
        </div>
      </div>
    </header>
  );
}
