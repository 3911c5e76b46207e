import { createContext } from "react-router";
import type { ExtraLoadContext } from "../../../server/web/load-context";

/** What the server (server/web) hands every SSR request. */
export interface AppContext extends ExtraLoadContext {
  /** This response's CSP script nonce ("" in development, where no CSP is sent). */
  cspNonce: string;
}

/**
 * Its key in React Router's request context: loaders read `context.get(appContext)`. A key
 * is compared by identity and the server's modules are not part of the web build, so the
 * server takes the key from the build it renders with (entry.server re-exports it).
 */
export const appContext = createContext<AppContext>();
