import { useEffect, useRef } from "react";

const MARK = "playerSheet";

/**
 * Back closes what this hook belongs to (the phone player's sheet): opening adds a history
 * entry of the same address, Back pops it. The popstate listener is a capture one on window, so
 * it runs before React Router's and stops it: this Back is not a navigation (no loaders, no
 * scroll restoring). Returns the close of its own button, which goes Back the same way.
 */
export function useBackToClose(onClose: () => void): () => void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    let popped = false;
    history.pushState({ ...(history.state ?? {}), [MARK]: true }, "");
    const onPop = (e: PopStateEvent) => {
      e.stopImmediatePropagation();
      popped = true;
      close.current();
    };
    window.addEventListener("popstate", onPop, true);
    return () => {
      window.removeEventListener("popstate", onPop, true);
      // Closed some other way (the queue cleared) while its entry is current: drop the entry too.
      if (popped || !history.state?.[MARK]) return;
      const swallow = (e: PopStateEvent) => {
        e.stopImmediatePropagation();
        window.removeEventListener("popstate", swallow, true);
      };
      window.addEventListener("popstate", swallow, true);
      history.back();
    };
  }, []);
  return () => (history.state?.[MARK] ? history.back() : close.current());
}
