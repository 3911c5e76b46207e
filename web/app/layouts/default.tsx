import { Outlet, useMatches } from "react-router";
import { LoginDialogHost } from "../components/account/LoginDialogHost";
import { MessageProvider } from "../components/feedback";
import { PLACEHOLDER_NAV } from "../components/nav/nav-items";
import { TopNav } from "../components/nav/TopNav";
import { PlayerSlot } from "../components/player/PlayerSlot";
import { GuardGate } from "../guards/GuardGate";
import type { RouteHandle } from "../guards/types";
import styles from "./default.module.css";

/**
 * Default layout: top navigation, page, global player bar and login dialog.
 * The user layout nests inside it, so moving between public and user pages keeps the
 * navbar and the player mounted (playback is never interrupted).
 */
export default function DefaultLayout() {
  const hidePlayer = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.hidePlayer);
  return (
    <MessageProvider>
      <div className={styles.shell}>
        <TopNav items={PLACEHOLDER_NAV} />
        <main className={hidePlayer ? styles.main : `${styles.main} ${styles.withPlayer}`}>
          <GuardGate>
            <Outlet />
          </GuardGate>
        </main>
        <PlayerSlot hidden={hidePlayer} />
        <LoginDialogHost />
      </div>
    </MessageProvider>
  );
}
