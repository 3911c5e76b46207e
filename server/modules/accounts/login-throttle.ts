import { isIPv6 } from "node:net";
import { LOGIN_LOCK_MINUTES } from "@contracts/auth";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";

/** Failures are counted in fixed windows of this length (from the first failure). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures of one account within a window that lock it. */
export const ACCOUNT_LOCK_FAILURES = 20;
/** Failures from one address (IPv6: its /64) within a window that lock the address. */
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
  /** The account or the address is locked: nothing is checked until the lock ends. */
  locked: boolean;
}

/**
 * Login failures per account (lower-cased, trimmed) and per client address, in the ephemeral
 * store. `scope` keeps the site's members and the back office's admins apart, so the admin
 * login (issue 12) counts and locks the same way with its own keys.
 */
export function loginThrottle(store: EphemeralStore, scope: "user" | "admin") {
  const keys = (account: string, ip: string) => {
    const address = addressKey(ip);
    return {
      account: `login-fail:${scope}:account:${account}`,
      address: `login-fail:${scope}:ip:${address}`,
      accountLock: `login-lock:${scope}:account:${account}`,
      addressLock: `login-lock:${scope}:ip:${address}`,
    };
  };

  return {
    async counts(account: string, ip: string): Promise<LoginCounts> {
      const k = keys(account, ip);
      const [byAccount, byAddress, accountLock, addressLock] = await Promise.all([
        store.count(k.account),
        store.count(k.address),
        store.get(k.accountLock),
        store.get(k.addressLock),
      ]);
      return { failures: Math.max(byAccount, byAddress), locked: accountLock !== undefined || addressLock !== undefined };
    },

    /** Counts one failure; past a limit the account or address is locked for LOGIN_LOCK_MS. */
    async fail(account: string, ip: string): Promise<LoginCounts> {
      const k = keys(account, ip);
      const byAccount = await store.increment(k.account, LOGIN_FAILURE_WINDOW_MS);
      const byAddress = await store.increment(k.address, LOGIN_FAILURE_WINDOW_MS);
      let locked = false;
      if (byAccount >= ACCOUNT_LOCK_FAILURES) {
        await store.set(k.accountLock, "1", LOGIN_LOCK_MS);
        locked = true;
      }
      if (byAddress >= ADDRESS_LOCK_FAILURES) {
        await store.set(k.addressLock, "1", LOGIN_LOCK_MS);
        locked = true;
      }
      return { failures: Math.max(byAccount, byAddress), locked };
    },

    /** After a successful login: the account starts afresh (the address keeps its count). */
    async succeed(account: string): Promise<void> {
      await store.delete(keys(account, "0.0.0.0").account);
    },
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
