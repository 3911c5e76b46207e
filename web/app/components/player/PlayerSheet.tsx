import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { showDefaultCover } from "../../lib/default-cover";
import { formatDuration } from "../suite/format";
import { Icon } from "./icons";
import { playerControls } from "./media-engine";
import { UNKNOWN_TIME } from "./PlayerBar";
import { knownDuration, type Track, trackAt } from "./player-item";
import { currentItem, usePlayer } from "./player-store";
import { QueueDrawer } from "./QueueDrawer";
import { SheetOptions } from "./SheetOptions";
import { TouchSeek } from "./TouchSeek";
import { useBackToClose } from "./use-back-to-close";
import styles from "./phone.module.css";

/**
 * The phones' full-screen player: cover, titles, a large seek bar with times, previous/play/
 * next, speed, sleep timer and volume, the suite's tracklist, and the playlist in a drawer.
 * Closed by its button, Escape or Back.
 */
export function PlayerSheet({ onClose }: { onClose: () => void }) {
  const close = useBackToClose(onClose);
  const item = usePlayer(currentItem);
  const playing = usePlayer((s) => s.playing);
  const position = usePlayer((s) => s.position);
  const mediaDuration = usePlayer((s) => s.duration);
  const count = usePlayer((s) => s.items.length);
  const atEnd = usePlayer((s) => s.index >= s.items.length - 1);
  const problem = usePlayer((s) => s.error ?? s.warning);
  const [queueOpen, setQueueOpen] = useState(false);
  const sheet = useRef<HTMLDivElement>(null);

  useEffect(() => {
    sheet.current?.querySelector<HTMLElement>("[data-sheet-close]")?.focus();
    // The page under the sheet does not scroll with it, and neither Tab nor a screen reader
    // wanders into it (the media element is not in those parts: it keeps playing).
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const under = [...(sheet.current?.parentElement?.children ?? [])].filter(
      (el): el is HTMLElement => el !== sheet.current && el instanceof HTMLElement && !el.querySelector("[data-player-media]") && !el.inert,
    );
    for (const el of under) el.inert = true;
    return () => {
      for (const el of under) el.inert = false;
      document.body.style.overflow = overflow;
      document.querySelector<HTMLElement>("[data-mini-player] button")?.focus();
    };
  }, []);
  if (!item) return null;
  const duration = knownDuration(mediaDuration, item);

  return (
    <div
      ref={sheet}
      className={styles.sheet}
      role="dialog"
      aria-modal="true"
      aria-label="播放器"
      data-player-sheet=""
      onKeyDown={(e) => {
        if (e.key !== "Escape" || queueOpen) return;
        e.preventDefault();
        close();
      }}
    >
      <header className={styles.sheetHead}>
        <button type="button" className={styles.roundButton} onClick={close} aria-label="收起播放器" data-sheet-close="">
          <Icon name="down" size={24} />
        </button>
        <span className={styles.sheetHeading}>正在播放</span>
        <button
          type="button"
          className={styles.pillButton}
          onClick={() => setQueueOpen(true)}
          aria-label="播放列表"
          aria-expanded={queueOpen}
          data-queue-toggle=""
        >
          <Icon name="list" size={20} />
          <span>{count}</span>
        </button>
      </header>
      <div className={styles.sheetBody}>
        <img className={styles.bigCover} src={item.cover} alt="" onError={showDefaultCover} />
        <h2 className={styles.sheetTitle}>
          {item.page ? (
            <Link to={item.page} onClick={onClose}>
              {item.name}
            </Link>
          ) : (
            item.name
          )}
        </h2>
        <p className={styles.sheetArtist}>{item.artist}</p>
        {problem ? (
          <p className={styles.sheetProblem} role="alert">
            {problem}
          </p>
        ) : null}
        <TouchSeek position={position} duration={duration} size="large" />
        <div className={styles.times}>
          <span>{formatDuration(position)}</span>
          <span>{duration > 0 ? formatDuration(duration) : UNKNOWN_TIME}</span>
        </div>
        <div className={styles.sheetControls}>
          <button type="button" className={styles.roundButton} onClick={playerControls.previous} aria-label="上一首">
            <Icon name="previous" size={30} />
          </button>
          <button type="button" className={styles.bigPlay} onClick={playerControls.toggle} aria-label={playing ? "暂停" : "播放"}>
            <Icon name={playing ? "pause" : "play"} size={34} />
          </button>
          <button type="button" className={styles.roundButton} onClick={playerControls.next} disabled={atEnd} aria-label="下一首">
            <Icon name="next" size={30} />
          </button>
        </div>
        <SheetOptions />
        {item.tracks?.length ? <SheetTracklist tracks={item.tracks} position={position} /> : null}
      </div>
      {queueOpen ? <QueueDrawer onClose={() => setQueueOpen(false)} /> : null}
    </div>
  );
}

/** The suite's timed tracks: which one plays, and a tap starts from any of them. */
function SheetTracklist({ tracks, position }: { tracks: Track[]; position: number }) {
  const n = trackAt(tracks, position);
  return (
    <section className={styles.tracks} aria-label="曲目列表">
      <h3>{n >= 0 ? `正在播放 第 ${n + 1} / ${tracks.length} 首` : `共 ${tracks.length} 首`}</h3>
      <ol>
        {tracks.map((t, i) => (
          <li key={`${t.start}-${t.label}`} aria-current={i === n}>
            <button type="button" onClick={() => playerControls.seek(t.start, true)}>
              <span className={styles.trackTime}>{formatDuration(t.start)}</span>
              <span className={styles.trackLabel}>{t.label}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
