import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import { formatDuration } from "../suite/format";
import { playerControls } from "./media-engine";
import styles from "./phone.module.css";

const KEY_STEPS: Record<string, number> = { ArrowLeft: -10, ArrowDown: -10, ArrowRight: 10, ArrowUp: 10, PageDown: -60, PageUp: 60 };

/**
 * The phone player's seek bar: a tap seeks where it lands, a drag shows the target time and
 * seeks when let go. Pointer events, not a native range: iOS moves a range's thumb only when
 * the thumb itself is dragged, and a thin range has no thumb to hit.
 */
export function TouchSeek({ position, duration, size }: { position: number; duration: number; size: "thin" | "large" }) {
  const track = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const [draft, setDraft] = useState<number | null>(null);
  const known = duration > 0;
  const at = (clientX: number) => {
    const r = track.current!.getBoundingClientRect();
    return Math.min(1, Math.max(0, (clientX - r.left) / r.width)) * duration;
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!known) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDraft(at(e.clientX));
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) setDraft(at(e.clientX));
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    playerControls.seek(at(e.clientX));
    setDraft(null);
  };
  const onCancel = () => {
    dragging.current = false;
    setDraft(null);
  };
  const onKey = (e: KeyboardEvent) => {
    const step = KEY_STEPS[e.key];
    const to = step !== undefined ? position + step : e.key === "Home" ? 0 : e.key === "End" ? duration - 1 : null;
    if (to === null || !known) return;
    e.preventDefault();
    playerControls.seek(to);
  };
  const shown = known ? Math.min(duration, draft ?? position) : 0;
  const fraction = known ? shown / duration : 0;
  return (
    <div
      className={size === "thin" ? styles.seekThin : styles.seekLarge}
      role="slider"
      tabIndex={0}
      aria-label="播放进度"
      aria-valuemin={0}
      aria-valuemax={Math.floor(duration)}
      aria-valuenow={Math.floor(shown)}
      aria-valuetext={formatDuration(shown)}
      aria-disabled={!known || undefined}
      data-seek={size}
      data-dragging={draft !== null ? "" : undefined}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onCancel}
      onKeyDown={onKey}
      // A tap on the mini bar's seek bar is a seek, not "open the player".
      onClick={(e) => e.stopPropagation()}
    >
      <div ref={track} className={styles.track}>
        <div className={styles.fill} style={{ width: `${fraction * 100}%` }} />
        <div className={styles.thumb} style={{ left: `${fraction * 100}%` }} />
      </div>
      {draft !== null ? (
        <span className={styles.bubble} style={{ left: `${fraction * 100}%` }} aria-hidden="true">
          {formatDuration(draft)}
        </span>
      ) : null}
    </div>
  );
}
