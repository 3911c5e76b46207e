import { showDefaultCover } from "../../lib/default-cover";
import { Icon } from "./icons";
import { playerControls } from "./media-engine";
import { useNowPlayingTrack } from "./PlayerBar";
import { knownDuration } from "./player-item";
import { currentItem, usePlayer } from "./player-store";
import { TouchSeek } from "./TouchSeek";
import styles from "./phone.module.css";

/**
 * The phones' bar (<= 768 px): cover, title, a thin seek bar along its top edge, play/pause and
 * next. A tap anywhere else on it opens the full-screen player.
 */
export function MiniBar({ onOpen }: { onOpen: () => void }) {
  const item = usePlayer(currentItem);
  const playing = usePlayer((s) => s.playing);
  const position = usePlayer((s) => s.position);
  const mediaDuration = usePlayer((s) => s.duration);
  const atEnd = usePlayer((s) => s.index >= s.items.length - 1);
  const problem = usePlayer((s) => s.error ?? s.warning);
  const track = useNowPlayingTrack();
  if (!item) return null;
  const sub = problem ?? (track ? `${item.artist} · 第 ${track.n} / ${track.of} 首` : item.artist);
  return (
    <div
      className={styles.mini}
      data-mini-player=""
      onClick={(e) => {
        if (!(e.target as Element).closest("button, [role=slider]")) onOpen();
      }}
    >
      <TouchSeek position={position} duration={knownDuration(mediaDuration, item)} size="thin" />
      <button type="button" className={styles.expand} onClick={onOpen} aria-label={`展开播放器：${item.name}`} aria-haspopup="dialog">
        <img className={styles.miniCover} src={item.cover} alt="" width={44} height={44} onError={showDefaultCover} />
        <span className={styles.miniTitles}>
          <span className={styles.miniName}>{item.name}</span>
          <span className={problem ? styles.miniProblem : styles.miniSub}>{sub}</span>
        </span>
      </button>
      <button type="button" className={styles.miniPlay} onClick={playerControls.toggle} aria-label={playing ? "暂停" : "播放"}>
        <Icon name={playing ? "pause" : "play"} size={24} />
      </button>
      <button type="button" className={styles.miniNext} onClick={playerControls.next} disabled={atEnd} aria-label="下一首">
        <Icon name="next" size={24} />
      </button>
    </div>
  );
}
