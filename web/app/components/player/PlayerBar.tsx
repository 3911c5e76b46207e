import { useEffect, useRef, useState } from "react";
import { showDefaultCover } from "../../lib/default-cover";
import { onDemand, useOnDemand } from "../../lib/on-demand";
import { useSiteMessage } from "../feedback";
import { Link } from "react-router";
import { formatDuration } from "../suite/format";
import { Icon, type IconName } from "./icons";
import { playerControls } from "./media-engine";
import { knownDuration, trackAt } from "./player-item";
import { currentItem, playerStore, usePlayer } from "./player-store";
import styles from "./player.module.css";

/** 'now playing: track N of M' when the item has a timed tracklist. */
export function useNowPlayingTrack() {
  const tracks = usePlayer((s) => currentItem(s)?.tracks);
  const n = usePlayer((s) => trackAt(currentItem(s)?.tracks, s.position));
  return tracks && n >= 0 ? { n: n + 1, of: tracks.length, label: tracks[n].label } : null;
}

/** The playlist's code: fetched once the bar is shown, opened with its button (ADR 0077). */
const playlistPanel = onDemand(() => import("./PlaylistPanel"));

/** The length while it is not known (a restored entry that never reported one). */
export const UNKNOWN_TIME = "--:--";

/** The bottom bar (spec section 2): previous/play/next, progress and time, volume and mute, playlist. */
export function PlayerBar() {
  const item = usePlayer(currentItem);
  const s = usePlayer((st) => st);
  const track = useNowPlayingTrack();
  // The playlist's code is fetched while the bar is up: its button opens it at once.
  useEffect(playlistPanel.preload, []);
  if (!item) return null;
  // Until the media says how long it is (after a reload it has not loaded yet), the entry's own length.
  const duration = knownDuration(s.duration, item);
  const atEnd = s.index >= s.items.length - 1;
  const status = s.error ? (
    <span className={styles.error} role="alert">{s.error}</span>
  ) : s.warning ? (
    <span className={styles.warning} role="status">{s.warning}</span>
  ) : (
    <span className={styles.sub}>
      {item.artist}
      {track ? ` · 正在播放：第 ${track.n} 首 / 共 ${track.of} 首` : ""}
    </span>
  );

  return (
    <div className={styles.bar} data-player-bar="">
      <div className={styles.now}>
        <img className={styles.cover} src={item.cover} alt="" width={44} height={44} onError={showDefaultCover} />
        <div className={styles.titles}>
          {item.page ? (
            <Link to={item.page} className={styles.name} title={item.name}>
              {item.name}
            </Link>
          ) : (
            <span className={styles.name} title={item.name}>
              {item.name}
            </span>
          )}
          {status}
        </div>
      </div>

      <div className={styles.center}>
        <div className={styles.buttons}>
          <IconButton icon="previous" label="上一首" onClick={playerControls.previous} />
          <IconButton
            icon={s.playing ? "pause" : "play"}
            label={s.playing ? "暂停" : "播放"}
            hint="空格"
            onClick={playerControls.toggle}
            main
          />
          <IconButton icon="next" label="下一首" onClick={playerControls.next} disabled={atEnd} />
        </div>
        <div className={styles.progress} data-player-progress="">
          <span>{formatDuration(s.position)}</span>
          <SeekSlider position={s.position} duration={duration} />
          <span>{duration > 0 ? formatDuration(duration) : UNKNOWN_TIME}</span>
        </div>
      </div>

      <div className={styles.right}>
        <IconButton
          icon={s.muted || s.volume === 0 ? "muted" : "volume"}
          label={s.muted ? "取消静音" : "静音"}
          hint="M"
          onClick={s.toggleMute}
        />
        <input
          className={styles.volume}
          type="range"
          min={0}
          max={100}
          step={1}
          value={s.muted ? 0 : s.volume}
          onChange={(e) => s.setVolume(Number(e.target.value))}
          aria-label="音量"
        />
        <button
          type="button"
          className={styles.listButton}
          onClick={() => s.setPanelOpen(!s.panelOpen)}
          aria-label="播放列表"
          aria-expanded={s.panelOpen}
          title="播放列表"
          data-playlist-toggle=""
        >
          <Icon name="list" />
          <span className={styles.count}>{s.items.length}</span>
        </button>
      </div>
      {s.panelOpen ? <Playlist /> : null}
    </div>
  );
}

function Playlist() {
  const message = useSiteMessage();
  const panel = useOnDemand(playlistPanel, true, () => {
    message.error("加载失败，请重试");
    playerStore.getState().setPanelOpen(false);
  });
  return panel ? <panel.PlaylistPanel /> : null;
}

function IconButton(props: { icon: IconName; label: string; hint?: string; onClick: () => void; disabled?: boolean; main?: boolean }) {
  return (
    <button
      type="button"
      className={props.main ? styles.mainButton : styles.iconButton}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-label={props.label}
      title={props.hint ? `${props.label} (${props.hint})` : props.label}
    >
      <Icon name={props.icon} size={props.main ? 22 : 20} />
    </button>
  );
}

/**
 * The progress slider: dragging shows the target time without seeking on every pixel; the
 * seek happens when the thumb is let go (the native `change` event).
 */
function SeekSlider({ position, duration }: { position: number; duration: number }) {
  const ref = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const commit = () => {
      playerControls.seek(Number(el.value));
      setDraft(null);
    };
    el.addEventListener("change", commit);
    return () => el.removeEventListener("change", commit);
  }, []);
  const known = duration > 0;
  const max = known ? Math.max(1, Math.floor(duration)) : 1;
  // With no known length the thumb stays at the start (a range clamps a larger value to full).
  const value = known ? Math.min(max, Math.floor(draft ?? position)) : 0;
  return (
    <input
      ref={ref}
      className={styles.range}
      type="range"
      min={0}
      max={max}
      step={1}
      value={value}
      disabled={!known}
      onChange={(e) => setDraft(Number(e.target.value))}
      aria-label="播放进度"
      aria-valuetext={formatDuration(draft ?? position)}
    />
  );
}

