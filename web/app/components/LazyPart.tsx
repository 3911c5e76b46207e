import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from "react";
import { importWithReload } from "../lib/chunk-reload";
import { useSiteMessage } from "./feedback";

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

class FailureBoundary extends Component<{ onError: () => void; children: ReactNode }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch() {
    this.props.onError();
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A part of the page loaded on demand (login dialog, user menu). When its chunk cannot be
 * fetched the page reloads (at most once a minute, see chunk-reload); otherwise it says
 * 加载失败，请重试 and the next render tries again, instead of breaking the whole page.
 */
export function LazyPart<P extends object>({
  load,
  props,
  fallback = null,
  onFail,
}: {
  /** A module-level function, so the import is the same on every render. */
  load: Loader<P>;
  props: P;
  fallback?: ReactNode;
  onFail?: () => void;
}) {
  const message = useSiteMessage();
  const [Part, setPart] = useState(() => lazy(importWithReload(load)));
  const [attempt, setAttempt] = useState(0);
  const fail = () => {
    void message.error("加载失败，请重试");
    setPart(() => lazy(importWithReload(load)));
    setAttempt((n) => n + 1);
    onFail?.();
  };
  return (
    <FailureBoundary key={attempt} onError={fail}>
      <Suspense fallback={fallback}>
        <Part {...props} />
      </Suspense>
    </FailureBoundary>
  );
}

/**
 * A dialog whose code loads the first time `open` turns true and then stays mounted (so it can
 * animate closed). When its chunk fails, the dialog's store is closed and the next open retries.
 */
export function LazyDialog({
  open,
  close,
  load,
  fallback = null,
}: {
  open: boolean;
  close: () => void;
  load: Loader<object>;
  /** Shown while the code loads (a frame with a spinner). */
  fallback?: ReactNode;
}) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  if (!wanted) return null;
  return (
    <LazyPart
      load={load}
      props={{}}
      fallback={fallback}
      onFail={() => {
        close();
        setWanted(false);
      }}
    />
  );
}
