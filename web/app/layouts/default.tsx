import { Outlet, useMatches } from "react-router";
import { LoginDialogHost } from "../components/account/LoginDialogHost";
import { MessageProvider } from "../components/feedback";
import { TopNav } from "../components/nav/TopNav";
import { SiteFooter } from "../components/site/SiteFooter";
import { PlayerHost } from "../components/player/PlayerHost";
import { GuardGate } from "../guards/GuardGate";
import type { RouteHandle } from "../guards/types";
import { appContext } from "../lib/app-context";
import type { Route } from "./+types/default";
import styles from "./default.module.css";

/**
 * The menu comes from the categories, through the in-process navigation service; the site
 * settings (title, keywords, description, footer, partner text) from the settings service;
 * the site's address makes the pages' canonical links absolute.
 * Both are kept until the back office changes them (ADR 0016, 0030).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const [nav, site] = await Promise.all([services.navigation.topNav(), services.siteSettings.get()]);
  return { nav, site, publicUrl: services.seo.publicUrl };
}

/** Categories and settings change only in the back office: moving between pages needn't reload them. */
export function shouldRevalidate() {
  return false;
}

/**
 * Default layout: top navigation, page, global player bar and login dialog.
 * The user layout nests inside it, so moving between public and user pages keeps the
 * navbar and the player mounted (playback is never interrupted).
 */
export default function DefaultLayout({ loaderData }: Route.ComponentProps) {
  const hidePlayer = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.hidePlayer);
  return (
    <MessageProvider>
      <div className={styles.shell}>
        <TopNav items={loaderData.nav} />
        <main className={hidePlayer ? styles.main : `${styles.main} ${styles.withPlayer}`}>
          <GuardGate>
            <Outlet />
          </GuardGate>
          <SiteFooter site={loaderData.site} />
        </main>
        <PlayerHost barHidden={hidePlayer} />
        <LoginDialogHost />
      </div>
    </MessageProvider>
  );
}
