import type { Envelope } from "../../lib/api";
import type { MusicInfo } from "@contracts/suite";
import { libraryMessages as m } from "@contracts/library-texts";
import { useEffect, useState } from "react";
import { useSession } from "../../session/store";
import { useLoginDialog } from "../account/login-dialog-store";
import { useSiteMessage } from "../feedback";
import { useDownloadDialog } from "../library/download-dialog-store";
import { handleFavorite, handleLike, handleUnfavorite, handleUnlike } from "../library/library-api";
import { useItemState } from "../library/use-item-state";

/**
 * The detail page's favourite, like (推荐) and download buttons (spec section 4): the member's
 * state comes after hydration; a click calls favourite or unfavourite (like or unlike) by the
 * current state; the state flips and the count moves only when the server says it worked.
 * Guests get the login dialog.
 */
export function useSuiteLibrary(info: MusicInfo) {
  const user = useSession((s) => s.user);
  const showLogin = useLoginDialog((s) => s.show);
  const showDownload = useDownloadDialog((s) => s.show);
  const message = useSiteMessage();
  const [state, setState] = useItemState(info.id);
  const [counts, setCounts] = useState({ likes: info.countLikes, favorites: info.countFavorites });
  const [busy, setBusy] = useState<"favorite" | "like" | null>(null);
  useEffect(() => setCounts({ likes: info.countLikes, favorites: info.countFavorites }), [info.id, info.countLikes, info.countFavorites]);

  async function run<T>(which: "favorite" | "like", call: () => Promise<Envelope<T>>, apply: (data: T) => void) {
    if (!user) return showLogin("login");
    if (busy) return;
    setBusy(which);
    try {
      const res = await call();
      if (res.code === 1) {
        apply(res.data);
        void message.success(res.msg);
      } else void message.error(res.msg || m.operationFailed);
    } catch {
      void message.error(m.operationFailed);
    } finally {
      setBusy(null);
    }
  }

  const favorite = state?.is_favorite ?? false;
  const liked = state?.is_liked ?? false;
  const blank = { id: info.id, is_favorite: false, is_liked: false, downloaded: false, purchased: false, position: null };

  return {
    favorite,
    liked,
    counts,
    busy,
    toggleFavorite: () =>
      run("favorite", () => (favorite ? handleUnfavorite(info.id) : handleFavorite(info.id)), (d) => {
        setState((s) => ({ ...(s ?? blank), is_favorite: d.is_favorite }));
        setCounts((c) => ({ ...c, favorites: d.count }));
      }),
    toggleLike: () =>
      run("like", () => (liked ? handleUnlike(info.id) : handleLike(info.id)), (d) => {
        setState((s) => ({ ...(s ?? blank), is_liked: d.is_liked }));
        setCounts((c) => ({ ...c, likes: d.count }));
      }),
    download: () => {
      if (!user) return showLogin("login");
      showDownload({ id: info.id, title: info.title, vipdown: info.vipdown, price: info.price, website: info.website }, (result) =>
        setState((s) => ({ ...(s ?? blank), downloaded: true, purchased: (s?.purchased ?? false) || result.charged > 0 })),
      );
    },
  };
}
