import { CAPTCHA_THRESHOLD } from "@contracts/auth-texts";
import { create } from "zustand";

/** sessionStorage key of the last failure count the server answered (spec: data.iscaptcha). */
const FAILURES_KEY = "login_iscaptcha";

const stored = () => {
  if (typeof window === "undefined") return 0;
  const n = Number(window.sessionStorage.getItem(FAILURES_KEY));
  return Number.isFinite(n) ? n : 0;
};

interface LoginCaptchaState {
  /** The server's `iscaptcha` after the last login attempt in this tab. */
  failures: number;
  setFailures: (failures: number) => void;
}

/**
 * Whether the login forms show the captcha (spec section 4: once data.iscaptcha >= 5). Shared by
 * the login page and the dialog, and kept for the tab's session, so a reload or the other form
 * does not hide a captcha the server will ask for.
 */
export const useLoginCaptcha = create<LoginCaptchaState>()((set) => ({
  failures: stored(),
  setFailures: (failures) => {
    window.sessionStorage.setItem(FAILURES_KEY, String(failures));
    set({ failures });
  },
}));

export const captchaShown = (failures: number) => failures >= CAPTCHA_THRESHOLD;
