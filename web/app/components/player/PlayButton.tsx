import type { CatalogueItem } from "@contracts/catalogue-item";
import { Glyph } from "./icons";
import { fromCatalogueItem, sameItem } from "./player-item";
import { currentItem, playerStore, usePlayer } from "./player-store";
import { playerControls } from "./media-engine";
import styles from "./player.module.css";

/**
 * 'Play' on a list item (category lists, home page, charts): adds it to the playlist and plays
 * it; on the item already playing it pauses.
 */
export function PlayButton({ item, className }: { item: CatalogueItem; className?: string }) {
  const entry = fromCatalogueItem(item);
  const playingThis = usePlayer((s) => s.playing && !!currentItem(s) && sameItem(currentItem(s)!, entry));
  const onClick = () => {
    if (playingThis) return playerControls.pause();
    const current = currentItem(playerStore.getState());
    if (current && sameItem(current, entry)) return void playerControls.play();
    playerStore.getState().playItem(entry);
  };
  return (
    <button
      type="button"
      className={className ? `${styles.playButton} ${className}` : styles.playButton}
      onClick={onClick}
      aria-label={`${playingThis ? "暂停" : "播放"} ${item.name}`}
      title={playingThis ? "暂停" : "播放"}
      data-play-item={String(item.id)}
    >
      <Glyph name={playingThis ? "pause" : "play"} />
    </button>
  );
}
