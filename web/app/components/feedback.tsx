import { Component, createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { importWithReload } from "../lib/chunk-reload";
import type { ToastCall, ToastSink } from "./Toasts";

/** A toast's text, or its text and a key (a toast with the same key replaces the shown one). */
export type SiteMessageContent = string | { key?: string; content: string };

export interface SiteMessage {
  success(content: SiteMessageContent): void;
  error(content: SiteMessageContent): void;
  warning(content: SiteMessageContent): void;
  /** Takes away the toast shown (or waiting to be shown) with this key. */
  dismiss(key: string): void;
}

const MessageContext = createContext<SiteMessage | null>(null);

const Toasts = lazy(importWithReload(() => import("./Toasts")));

/** A toast chunk that cannot load must not take the page down (the page reloads instead). */
class Quiet extends Component<{ children: ReactNode }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Theme-aware toasts (message.success('退出成功')...) for the public layouts. antd's message
 * code (and its style engine, ~55 KB gzip) loads with the first toast, not with the page: most
 * visits never show one. Toasts asked for before it arrives are shown when it does.
 */
export function MessageProvider({ children }: { children: ReactNode }) {
  const pending = useRef<ToastCall[]>([]);
  const sink = useRef<ToastSink | null>(null);
  const [wanted, setWanted] = useState(false);
  const attach = useCallback((next: ToastSink | null) => {
    sink.current = next;
  }, []);
  const api = useMemo<SiteMessage>(() => {
    const send = (kind: "success" | "error" | "warning") => (content: SiteMessageContent) => {
      if (sink.current) return sink.current({ kind, content });
      pending.current.push({ kind, content });
      setWanted(true);
    };
    const dismiss = (key: string) => {
      if (sink.current) return sink.current({ kind: "dismiss", content: key });
      // In place: the toasts part holds this array until it has shown what waits in it.
      const kept = pending.current.filter((call) => typeof call.content === "string" || call.content.key !== key);
      pending.current.splice(0, pending.current.length, ...kept);
    };
    return { success: send("success"), error: send("error"), warning: send("warning"), dismiss };
  }, []);
  return (
    <MessageContext.Provider value={api}>
      {wanted ? (
        <Quiet>
          <Suspense fallback={null}>
            <Toasts pending={pending.current} attach={attach} />
          </Suspense>
        </Quiet>
      ) : null}
      {children}
    </MessageContext.Provider>
  );
}

export function useSiteMessage(): SiteMessage {
  const api = useContext(MessageContext);
  if (!api) throw new Error("useSiteMessage needs <MessageProvider> (default layout)");
  return api;
}
