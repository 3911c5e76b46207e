import { Button } from "antd";
import { useCallback, useEffect, useState } from "react";
import { CODE_RESEND_SECONDS } from "@contracts/account-profile-texts";

export interface Countdown {
  /** Whole seconds left (0: not counting). */
  remaining: number;
  /** Starts (or restarts) counting down from `seconds`. */
  start: (seconds?: number) => void;
}

/**
 * A 60-second countdown (spec sections 4 and 9). Counted from an end time, not by ticks, so a
 * throttled background tab still shows the right number. Each send button owns one: the email
 * change's two buttons count separately.
 */
export function useCountdown(): Countdown {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endsAt <= Date.now()) return;
    const timer = window.setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= endsAt) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);
  const start = useCallback((seconds = CODE_RESEND_SECONDS) => {
    const t = Date.now();
    setNow(t);
    setEndsAt(t + seconds * 1000);
  }, []);
  return { remaining: Math.max(0, Math.ceil((endsAt - now) / 1000)), start };
}

/**
 * The send-code button: disabled while counting down, shown as 'Ns后重试' (spec), enabled again
 * after. `onSend` asks the server and answers the seconds to count (null: nothing to wait for).
 */
export function SendCodeButton({
  countdown,
  onSend,
  disabled,
  label = "获取验证码",
}: {
  countdown: Countdown;
  onSend: () => Promise<number | null>;
  disabled?: boolean;
  label?: string;
}) {
  const [sending, setSending] = useState(false);
  const counting = countdown.remaining > 0;
  const click = async () => {
    setSending(true);
    try {
      const seconds = await onSend();
      if (seconds) countdown.start(seconds);
    } finally {
      setSending(false);
    }
  };
  return (
    <Button onClick={click} loading={sending} disabled={disabled || counting} style={{ minWidth: 112 }}>
      {counting ? `${countdown.remaining}s后重试` : sending ? "发送中..." : label}
    </Button>
  );
}
