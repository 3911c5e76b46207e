import { useEffect, type ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigate } from "react-router";
import { SafeErrorPage } from "./components/errors/ErrorPage";
import { EARLY_TAPS_SCRIPT, replayEarlyTaps } from "./lib/early-taps";
import { useNonce } from "./lib/nonce";
import { setAuthFailureNavigator } from "./lib/user-api";
import { pageMeta } from "./lib/site";
import { siteOf } from "./lib/site-settings";
import { colors, FONT_FAMILY } from "./theme";
import type { Route } from "./+types/root";

// Pages without a title of their own: the site's title of the settings their layout carries.
export const meta: Route.MetaFunction = ({ matches }) => pageMeta(undefined, undefined, siteOf(matches));

/**
 * Base styles every page needs before any stylesheet arrives (inline: no extra request), and a
 * visible keyboard focus everywhere (dark parts, the navbar and the player, draw theirs lighter).
 */
const BASE_CSS = `html,body{margin:0;padding:0}body{font-family:${FONT_FAMILY};background:${colors.page};color:#1f1b2e;-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}:focus-visible{outline:2px solid ${colors.primary};outline-offset:2px}[data-tap-pending]{cursor:progress;opacity:.7}`;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Marks the document once React owns it (tests and monitoring wait for this).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "1";
    // What was tapped before React owned the page happens now (lib/early-taps.ts).
    replayEarlyTaps();
  }, []);
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        {/* First, so that no tap is lost while the app's scripts load (lib/early-taps.ts). */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_TAPS_SCRIPT }} />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={colors.chrome} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Installable (ADR 0066): the manifest is named by the site settings. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Meta />
        <Links />
        <style dangerouslySetInnerHTML={{ __html: BASE_CSS }} />
      </head>
      <body>
        {/* antd's theme wraps only the parts that use antd (components/AntdScope.tsx). */}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function Root() {
  const navigate = useNavigate();
  // An auth failure of a member call (user-api.ts) goes to /login inside the app, without a reload.
  useEffect(() => setAuthFailureNavigator(() => void navigate("/login")), [navigate]);
  return <Outlet />;
}

/** Errors no route handled; if showing them fails too, the fallback text remains. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <SafeErrorPage error={error} />;
}
