import type { ItemState } from "@contracts/library";
import { useEffect, useState } from "react";
import { useSession } from "../../session/store";
import { storedToken } from "../../lib/user-api";
import { getItemStates } from "./library-api";

/**
 * The signed-in member's marks on one item, asked after hydration (the page's HTML is the same
 * for everyone and may be cached). Asked again when the member changes (login, logout: null).
 */
export function useItemState(id: number) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [state, setState] = useState<ItemState | null>(null);
  useEffect(() => {
    setState(null);
    // No token: a logout is under way (the member is cleared once its page has changed).
    if (userId === null || !storedToken()) return;
    let cancelled = false;
    getItemStates([id])
      .then((res) => {
        if (!cancelled && res.code === 1 && res.data[0]) setState(res.data[0]);
      })
      .catch(() => undefined); // the buttons keep their neutral labels
    return () => {
      cancelled = true;
    };
  }, [id, userId]);
  return [state, setState] as const;
}
