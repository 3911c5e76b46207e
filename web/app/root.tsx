import { ConfigProvider } from "antd";
import zhCN from "antd/locale/zh_CN";
import { useEffect, type ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigate } from "react-router";
import { SafeErrorPage } from "./components/errors/ErrorPage";
import { useNonce } from "./lib/nonce";
import { setAuthFailureNavigator } from "./lib/user-api";
import { pageMeta } from "./lib/site";
import { colors, FONT_FAMILY, theme } from "./theme";
import type { Route } from "./+types/root";

export const meta = () => pageMeta();

/** Button labels stay as written (antd would space out two-character ones: "登 录"). */
const BUTTON_CONFIG = { autoInsertSpace: false };

/** Base styles every page needs before any stylesheet arrives (inline: no extra request). */
const BASE_CSS = `html,body{margin:0;padding:0}body{font-family:${FONT_FAMILY};background:${colors.page};color:#1f1b2e;-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}`;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Marks the document once React owns it (tests and monitoring wait for this).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "1";
  }, []);
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={colors.chrome} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        <style dangerouslySetInnerHTML={{ __html: BASE_CSS }} />
      </head>
      <body>
        {/* antd's <App> (message/modal/notification context) wraps the admin layout only; the
            public layouts provide messages alone, see components/feedback.tsx. */}
        <ConfigProvider locale={zhCN} theme={theme} button={BUTTON_CONFIG}>
          {children}
        </ConfigProvider>
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
