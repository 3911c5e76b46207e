import { libraryMessages as m } from "@contracts/library-texts";
import { useEffect, useState } from "react";
import { useSession } from "../../session/store";
import { useLoginDialog } from "../account/login-dialog-store";
import { useSiteMessage } from "../feedback";
import { Glyph } from "../player/icons";
import { handleFavorite, handleUnfavorite } from "./library-api";
import { useListFavorites, wantFavoriteMark } from "./list-favorites";
import styles from "./library.module.css";

/**
 * A list row's favourite toggle (收藏/已收藏): guests get the login dialog; for a member it
 * calls favourite or unfavourite by the current mark, which flips only when the server says so.
 */
export function ListFavoriteButton({ id, name }: { id: number; name: string }) {
  const userId = useSession((s) => s.user?.id ?? null);
  const on = useListFavorites((s) => (s.userId === userId && s.marks[id]) || false);
  const showLogin = useLoginDialog((s) => s.show);
  const message = useSiteMessage();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (userId !== null) wantFavoriteMark(userId, id);
  }, [userId, id]);

  const onClick = async () => {
    if (userId === null) return showLogin("login");
    if (busy) return;
    setBusy(true);
    try {
      const res = await (on ? handleUnfavorite(id) : handleFavorite(id));
      if (res.code === 1) {
        useListFavorites.getState().set(id, res.data.is_favorite);
        void message.success(res.msg);
      } else void message.error(res.msg || (on ? m.unfavoriteFailed : m.operationFailed));
    } catch {
      void message.error(on ? m.unfavoriteFailed : m.operationFailed);
    } finally {
      setBusy(false);
    }
  };
  const label = on ? "已收藏" : "收藏";
  return (
    <button
      type="button"
      className={on ? `${styles.listFavorite} ${styles.listFavoriteOn}` : styles.listFavorite}
      onClick={onClick}
      aria-label={`${label} ${name}`}
      aria-pressed={on}
      title={label}
      disabled={busy}
      data-favorite-item={String(id)}
    >
      <Glyph name={on ? "heart" : "heartOutline"} />
    </button>
  );
}
