import type { CatalogueItem } from "@contracts/catalogue-item";
import { useSiteMessage } from "../feedback";
import { Glyph } from "../player/icons";
import { fromCatalogueItem, type PlayerItem } from "../player/player-item";
import { playerStore } from "../player/player-store";
import styles from "./lists.module.css";

/** The items of a list the player can play (a hit or chart line without an address cannot). */
export const playableEntries = (items: readonly CatalogueItem[]): PlayerItem[] => items.filter((i) => i.palyurl).map(fromCatalogueItem);

/**
 * 播放全部 / 全部加入播放列表 above a list: the list's items go to the end of the global
 * playlist (each once); 播放全部 starts its first. Hidden when nothing of the list can play.
 */
export function PlayAll({ entries, label }: { entries: readonly PlayerItem[]; label?: string }) {
  const message = useSiteMessage();
  if (entries.length === 0) return null;
  const add = (play: boolean) => {
    playerStore.getState().addAll(entries, play);
    if (!play) message.success({ key: "play-all", content: `已加入播放列表：${entries.length} 首` });
  };
  return (
    <div className={styles.playAll} role="group" aria-label={label ?? "播放列表操作"} data-play-all>
      <button type="button" className={styles.playAllMain} onClick={() => add(true)}>
        <Glyph name="play" />
        播放全部
      </button>
      <button type="button" className={styles.playAllAdd} onClick={() => add(false)}>
        全部加入播放列表
      </button>
    </div>
  );
}
