import { RESIZE_DEBOUNCE_MS } from "@contracts/player-texts";
import { type PointerEvent as ReactPointerEvent, type RefObject, useEffect, useRef, useState } from "react";
import { Icon } from "./icons";
import { playerControls } from "./media-engine";
import { isVideo } from "./player-item";
import { currentItem, playerStore, usePlayer } from "./player-store";
import styles from "./player.module.css";

interface Point {
  x: number;
  y: number;
}

/** Keeps at least the title bar inside the viewport. */
function clampToViewport(p: Point, box: HTMLElement): Point {
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  return {
    x: Math.min(Math.max(0, p.x), Math.max(0, window.innerWidth - w)),
    y: Math.min(Math.max(0, p.y), Math.max(0, window.innerHeight - Math.min(h, 34))),
  };
}

/**
 * The site's one media element, inside the video window. Audio items play through it with
 * the window hidden; an mp4 item shows the window, which can be dragged by its title bar,
 * minimised to the title bar and made full screen.
 */
export function VideoWindow({ mediaRef }: { mediaRef: RefObject<HTMLVideoElement | null> }) {
  const item = usePlayer(currentItem);
  const minimised = usePlayer((s) => s.videoMinimised);
  const fullscreen = usePlayer((s) => s.videoFullscreen);
  const frame = useRef<HTMLElement>(null);
  const [at, setAt] = useState<Point | null>(null);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const video = isVideo(item);

  // Spec section 9: resize debounced 250 ms, then pull the window back into view.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setAt((p) => (p && frame.current ? clampToViewport(p, frame.current) : p)), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener("resize", onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("resize", onResize);
    };
  }, []);

  useEffect(() => {
    const onChange = () => playerStore.getState().setVideoFullscreen(document.fullscreenElement === frame.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);

  const onPointerDown = (e: ReactPointerEvent<HTMLElement>) => {
    if (fullscreen || (e.target as HTMLElement).closest("button") || !frame.current) return;
    const rect = frame.current.getBoundingClientRect();
    drag.current = { dx: e.clientX - rect.left, dy: e.clientY - rect.top };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLElement>) => {
    if (!drag.current || !frame.current) return;
    setAt(clampToViewport({ x: e.clientX - drag.current.dx, y: e.clientY - drag.current.dy }, frame.current));
  };
  const endDrag = () => void (drag.current = null);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void frame.current?.requestFullscreen().catch(() => undefined);
  };

  const className = [styles.videoWindow, minimised && !fullscreen ? styles.minimised : ""].filter(Boolean).join(" ");
  return (
    <section
      ref={frame}
      className={className}
      hidden={!video}
      style={at && !fullscreen ? { left: at.x, top: at.y, right: "auto", bottom: "auto" } : undefined}
      aria-label="视频播放窗口"
      data-video-window=""
      data-minimised={minimised ? "1" : undefined}
    >
      <header
        className={styles.videoHead}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={toggleFullscreen}
      >
        <span className={styles.videoTitle}>{item?.name}</span>
        <button
          type="button"
          className={styles.iconButton}
          onClick={() => playerStore.getState().setVideoMinimised(!minimised)}
          aria-label={minimised ? "还原视频窗口" : "最小化视频窗口"}
          title={minimised ? "还原" : "最小化"}
        >
          <Icon name={minimised ? "restore" : "minimise"} size={16} />
        </button>
        <button
          type="button"
          className={styles.iconButton}
          onClick={toggleFullscreen}
          aria-label={fullscreen ? "退出全屏" : "全屏"}
          title={fullscreen ? "退出全屏" : "全屏"}
        >
          <Icon name="fullscreen" size={16} />
        </button>
      </header>
      <video ref={mediaRef} className={styles.video} playsInline preload="metadata" onClick={playerControls.toggle} data-player-media="" />
    </section>
  );
}
