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
            // A plain button: antd's Button put ~38 KB of its styles inline in every public page.
            <button type="button" className={styles.login} onClick={() => showLogin("login")}>
              登录/注册
            </button>
          )}
        </div>
      </div>
    </header>
  );
}
