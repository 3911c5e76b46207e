import { useEffect, useState } from "react";
import { formatDuration } from "../suite/format";
import { Icon } from "./icons";
import { PLAYBACK_RATES, playerStore, usePlayer } from "./player-store";
import { canSetVolume } from "./use-phone-layout";
import styles from "./phone.module.css";

const SLEEP_CHOICES = [
  { value: "15", label: "15 分钟" },
  { value: "30", label: "30 分钟" },
  { value: "60", label: "60 分钟" },
  { value: "item", label: "播完本首" },
] as const;

/** Seconds left on the sleep timer, counted down once a second while it runs. */
function useSleepLeft(at: number | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** The sheet's speed, sleep timer and volume (where the device lets a page set it). */
export function SheetOptions() {
  const rate = usePlayer((s) => s.rate);
  const sleep = usePlayer((s) => s.sleep);
  const volume = usePlayer((s) => s.volume);
  const muted = usePlayer((s) => s.muted);
  const { setRate, setSleep, setVolume, toggleMute } = playerStore.getState();
  const left = useSleepLeft(sleep?.at);
  const sleepValue = !sleep ? "off" : sleep.afterItem ? "item" : "timer";
  // Decided after hydration (the sheet only ever renders in the browser).
  const [volumeShown] = useState(canSetVolume);
  return (
    <div className={styles.options}>
      <label className={styles.option}>
        <span>倍速</span>
        <select value={String(rate)} onChange={(e) => setRate(Number(e.target.value))} aria-label="播放速度">
          {PLAYBACK_RATES.map((r) => (
            <option key={r} value={String(r)}>
              {r}×
            </option>
          ))}
        </select>
      </label>
      <label className={styles.option}>
        <span>定时关闭</span>
        <select
          value={sleepValue}
          onChange={(e) => {
            const v = e.target.value;
            setSleep(v === "off" ? null : v === "item" ? "item" : Number(v));
          }}
          aria-label="定时关闭"
          data-sleep-left={left ?? undefined}
        >
          <option value="off">不开启</option>
          {sleepValue === "timer" ? (
            <option value="timer" disabled>
              {formatDuration(left ?? 0)} 后停止
            </option>
          ) : null}
          {SLEEP_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {volumeShown ? (
        <div className={styles.volumeRow}>
          <button type="button" className={styles.roundButton} onClick={toggleMute} aria-label={muted ? "取消静音" : "静音"}>
            <Icon name={muted || volume === 0 ? "muted" : "volume"} size={20} />
          </button>
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={muted ? 0 : volume}
            onChange={(e) => setVolume(Number(e.target.value))}
            aria-label="音量"
          />
        </div>
      ) : null}
    </div>
  );
}
