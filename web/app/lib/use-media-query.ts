import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the browser matches a CSS media query, kept current as it changes. The server's answer
 * (and the first render of hydration) is `false`: what is rendered there must not depend on it.
 */
export function useMediaQuery(query: string): boolean {
  // One subscription per query: a new function each render would make React subscribe again.
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
