import type { ViewCount } from "@contracts/suite";
import { useEffect, useState } from "react";
import { sendJson } from "../../lib/api";

/**
 * The suite page's view (ADR 0053): the page's bytes carry the count it was rendered with; once
 * hydrated it sends one beacon, which counts this visitor's view (the `vid` cookie the page's
 * answer issued; once a day) and answers the current count, shown instead. Without the cookie
 * the server counts nothing (403) and still says the count.
 */
export function useViewCount(id: number, rendered: number): number {
  const [views, setViews] = useState(rendered);
  useEffect(() => {
    setViews(rendered);
    let gone = false;
    sendJson("POST", "/api/forntend/view", { id }, null)
      .then(({ json }) => {
        const count = (json as { data?: Partial<ViewCount> | null }).data?.views;
        if (!gone && typeof count === "number") setViews(count);
      })
      // The rendered count stays: a view is only a number on the page.
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [id, rendered]);
  return views;
}
