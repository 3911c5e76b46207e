import { isIPv6 } from "node:net";
import { authMessages, CAPTCHA_THRESHOLD, LOGIN_LOCK_MINUTES } from "@contracts/auth";
import { AppError } from "../../errors.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";

/** Failures are counted in fixed windows of this length (from the first failure). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Failures of one account from one address (IPv6: its /64) within a window that lock that pair:
 * an account is never locked for everyone, so nobody can lock its owner out (issue 24).
 */
export const ACCOUNT_LOCK_FAILURES = 20;
/** Failures from one address within a window, across accounts, that lock the address. */
export const ADDRESS_LOCK_FAILURES = 100;
export const LOGIN_LOCK_MS = LOGIN_LOCK_MINUTES * 60_000;

/**
 * The client address failures are counted under: IPv4 as it is, an IPv4-mapped IPv6 address as
 * IPv4, other IPv6 addresses by their /64 (what one subscriber gets), like the rate limits.
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export interface LoginCounts {
  /** max(failures of the account, failures from the address): the spec's `iscaptcha`. */
  failures: number;
  /** The account from this address, or the address, is locked: only a solved captcha lets a password be checked. */
  locked: boolean;
}

/**
 * Login failures per account (lower-cased, trimmed), per client address and per account at an
 * address, in the ephemeral store. `scope` keeps the site's members and the back office's admins
 * apart, so the admin login (issue 12) counts and locks the same way with its own keys.
 */
export function loginThrottle(store: EphemeralStore, scope: "user" | "admin") {
  const keys = (account: string, ip: string) => {
    const address = addressKey(ip);
    return {
      account: `login-fail:${scope}:account:${account}`,
      address: `login-fail:${scope}:ip:${address}`,
      pair: `login-fail:${scope}:pair:${address}:${account}`,
      pairLock: `login-lock:${scope}:pair:${address}:${account}`,
      addressLock: `login-lock:${scope}:ip:${address}`,
    };
  };

  return {
    async counts(account: string, ip: string): Promise<LoginCounts> {
      const k = keys(account, ip);
      const [byAccount, byAddress, pairLock, addressLock] = await Promise.all([
        store.count(k.account),
        store.count(k.address),
        store.get(k.pairLock),
        store.get(k.addressLock),
      ]);
      return { failures: Math.max(byAccount, byAddress), locked: pairLock !== undefined || addressLock !== undefined };
    },

    /** Counts one failure; past a limit the account at this address, or the address, is locked for LOGIN_LOCK_MS. */
    async fail(account: string, ip: string): Promise<LoginCounts> {
      const k = keys(account, ip);
      const byAccount = await store.increment(k.account, LOGIN_FAILURE_WINDOW_MS);
      const byAddress = await store.increment(k.address, LOGIN_FAILURE_WINDOW_MS);
      const byPair = await store.increment(k.pair, LOGIN_FAILURE_WINDOW_MS);
      let locked = false;
      if (byPair >= ACCOUNT_LOCK_FAILURES) {
        await store.set(k.pairLock, "1", LOGIN_LOCK_MS);
        locked = true;
      }
      if (byAddress >= ADDRESS_LOCK_FAILURES) {
        await store.set(k.addressLock, "1", LOGIN_LOCK_MS);
        locked = true;
      }
      return { failures: Math.max(byAccount, byAddress), locked };
    },

    /** After a successful login: the account starts afresh, here and at this address (the address keeps its count). */
    async succeed(account: string, ip: string): Promise<void> {
      const k = keys(account, ip);
      await Promise.all([store.delete(k.account), store.delete(k.pair), store.delete(k.pairLock)]);
    },
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;

/**
 * What a login checks before the password, the site's and the back office's alike. From the 5th
 * failure every attempt needs a solved captcha; a lock (the account at this address, or the
 * address) answers 429 to an attempt without one, and lets one with a solved captcha have its
 * password checked, so the owner always gets in. `refuse` counts one failure and makes the
 * refusal to throw (429 once it locks).
 */
export async function loginGate(throttle: LoginThrottle, attempt: { account: string; ip: string; captcha?: string; verifyCaptcha(answer: string): Promise<boolean> }) {
  const { account, ip } = attempt;
  const before = await throttle.counts(account, ip);
  const refuse = async (msg: string) => {
    const after = await throttle.fail(account, ip);
    return after.locked ? new AppError(429, authMessages.loginLocked, { iscaptcha: after.failures }) : new AppError(401, msg, { iscaptcha: after.failures });
  };
  const answer = attempt.captcha?.trim();
  if (before.locked && !answer) throw new AppError(429, authMessages.loginLocked, { iscaptcha: before.failures });
  // The captcha comes first: without it nothing (no password hashing) is spent on a guess.
  if (before.locked || before.failures >= CAPTCHA_THRESHOLD) {
    if (!answer) throw await refuse(authMessages.captchaRequired);
    if (!(await attempt.verifyCaptcha(answer))) throw await refuse(authMessages.captchaWrong);
  }
  return { before, refuse, succeed: () => throttle.succeed(account, ip) };
}
