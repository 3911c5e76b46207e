import type { AdminRoleCode } from "@contracts/admin-texts";
import { Skeleton } from "antd";
import type { ReactNode } from "react";
import { adminMenuGroupIcons } from "./admin-menu";
import styles from "../../layouts/admin.module.css";

/**
 * The first screen's skeleton while the login check answers: a title and a table's rows, in
 * the server's HTML, so a full load paints the back office at once rather than a blank
 * 加载中... (issue 25). Screen readers still hear 加载中.
 */
export function AdminContentSkeleton() {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-testid="admin-skeleton">
      <span className={styles.srOnly}>加载中...</span>
      <span className={`${styles.bone} ${styles.skeletonTitle}`} />
      <Skeleton active title={false} paragraph={{ rows: 8, width: "100%" }} />
    </div>
  );
}

/**
 * The collapsed menu as the server draws it for a screen under 1200 px, before the script has
 * measured the window (CSS shows it there instead of the full menu): the groups' icons the
 * admin's role sees, as antd's collapsed menu shows them. Not interactive; the real menu
 * replaces it at hydration.
 */
export function EarlyMiniMenu({ role }: { role: AdminRoleCode | null | undefined }) {
  return (
    <div className={styles.miniMenu} aria-hidden="true" data-testid="admin-mini-menu">
      {adminMenuGroupIcons(role).map(({ key, icon }) => (
        <span key={key} className={styles.miniItem}>
          {icon}
        </span>
      ))}
    </div>
  );
}

/** The header's place for the admin's name while the login check answers (same size: no shift). */
export function AdminUserPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <span className={styles.userPlaceholder} aria-hidden="true">
      <span className={`${styles.bone} ${styles.userPlaceholderAvatar}`} />
      <span className={`${styles.bone} ${styles.userPlaceholderName}`} />
      {children}
    </span>
  );
}
