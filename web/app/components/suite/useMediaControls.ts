import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Play/pause and progress for the detail page's own media element. The global player issue
 * replaces this with the shared player store; the page's controls keep their shape.
 */
export function useMediaControls() {
  const ref = useRef<HTMLMediaElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const sync = () => {
      setPlaying(!el.paused);
      setTime(el.currentTime);
      if (Number.isFinite(el.duration)) setDuration(el.duration);
    };
    const fail = () => setError("播放出错");
    const events = ["play", "pause", "timeupdate", "durationchange", "ended"] as const;
    events.forEach((e) => el.addEventListener(e, sync));
    el.addEventListener("error", fail);
    return () => {
      events.forEach((e) => el.removeEventListener(e, sync));
      el.removeEventListener("error", fail);
    };
  }, []);

  const toggle = useCallback(async () => {
    const el = ref.current;
    if (!el) return;
    setError(null);
    if (!el.paused) return el.pause();
    try {
      await el.play();
    } catch {
      setError("播放失败，请稍后重试");
    }
  }, []);

  const seek = useCallback((seconds: number) => {
    const el = ref.current;
    if (!el) return;
    el.currentTime = seconds;
    if (el.paused) void el.play().catch(() => setError("播放失败，请稍后重试"));
  }, []);

  return { ref, playing, time, duration, error, toggle, seek };
}
