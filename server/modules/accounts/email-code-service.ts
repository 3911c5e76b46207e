import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { isIPv6 } from "node:net";
import {
  CODE_RESEND_SECONDS,
  CODE_VALID_MINUTES,
  type EmailCodeEvent,
  profileMessages as msg,
} from "@contracts/account-profile";
import type { AppDatabase, DbLogger } from "../../db/types.js";
import { AppError, badRequest } from "../../errors.js";
import type { Clock } from "../../lib/clock.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import { codeMail } from "../mail/code-mail.js";
import type { Mailer } from "../mail/mailer.js";
import { emailCodeRepo } from "./email-code-repo.js";

/** The rules of email codes (issue 10; ADR 0018). */
export const EMAIL_CODE_RULES = {
  digits: 6,
  validMs: CODE_VALID_MINUTES * 60_000,
  /** One send per address per this long (whatever the event). */
  resendMs: CODE_RESEND_SECONDS * 1000,
  /** Sends per client address (IPv6: its /64) per hour. */
  perIpPerHour: 20,
  /** Wrong tries after which a code is dead. */
  maxWrongTries: 5,
} as const;

const HOUR_MS = 3600_000;

/** The throttle's bucket of a client address: an IPv6 subscriber gets a whole /64. */
export function ipBucket(ip: string): string {
  if (!isIPv6(ip) || ip.startsWith("::ffff:")) return ip;
  const [head] = ip.split("::");
  const groups = head.split(":").filter(Boolean);
  return `${groups.slice(0, 4).join(":")}::/64`;
}

function hashCode(code: string, salt: string): string {
  return createHmac("sha256", salt).update(code).digest("hex");
}

/** Stored as salt$hmac: the code never sits in the table in plain digits. */
function sealCode(code: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${salt}$${hashCode(code, salt)}`;
}

function codeMatches(sealed: string, code: string): boolean {
  const [salt, expected] = sealed.split("$");
  if (!salt || !expected) return false;
  const actual = Buffer.from(hashCode(code, salt), "hex");
  const wanted = Buffer.from(expected, "hex");
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

export interface EmailCodeDeps {
  mailer: Mailer;
  ephemeral: EphemeralStore;
  clock: Clock;
  publicUrl: string;
  /** The site's title (站点设置): mails name the site by it. */
  siteTitle: () => Promise<string>;
  logger: Pick<DbLogger, "warn" | "error">;
}

/**
 * Email codes: sends them (throttled per address and per client address), checks them (wrong
 * tries counted per code), uses them once. Who may ask for which event is the caller's rule
 * (profile/profile-service.ts); this is the mechanism.
 */
export function emailCodeService(db: AppDatabase, { mailer, ephemeral, clock, publicUrl, siteTitle, logger }: EmailCodeDeps) {
  const repo = emailCodeRepo(db);
  const addressKey = (email: string) => `email-code:address:${email.toLowerCase()}`;
  const untilKey = (email: string) => `email-code:until:${email.toLowerCase()}`;
  const ipKey = (ip: string) => `email-code:ip:${ipBucket(ip)}`;

  /** Refuses a second send within the minute (with the seconds left), then the hourly cap per IP. */
  async function claimSendSlot(email: string, ip: string): Promise<void> {
    const now = clock().getTime();
    // increment is the atomic step: two requests at once cannot both be first.
    if ((await ephemeral.increment(addressKey(email), EMAIL_CODE_RULES.resendMs)) > 1) {
      const until = Number(await ephemeral.get(untilKey(email))) || now + EMAIL_CODE_RULES.resendMs;
      const seconds = Math.max(1, Math.ceil((until - now) / 1000));
      throw new AppError(429, msg.codeTooSoon(seconds), { retryAfter: seconds });
    }
    await ephemeral.set(untilKey(email), String(now + EMAIL_CODE_RULES.resendMs), EMAIL_CODE_RULES.resendMs);
    if ((await ephemeral.increment(ipKey(ip), HOUR_MS)) > EMAIL_CODE_RULES.perIpPerHour) {
      // Nothing was sent: the address may ask again as soon as the IP may.
      await releaseSendSlot(email);
      throw new AppError(429, msg.codeIpCap);
    }
  }
  async function releaseSendSlot(email: string) {
    await ephemeral.delete(addressKey(email));
    await ephemeral.delete(untilKey(email));
  }

  return {
    /** Sends a new code for `event` to `email`; answers the seconds until the next may be sent. */
    async send(email: string, event: EmailCodeEvent, ip: string): Promise<{ retryAfter: number }> {
      const address = email.trim().toLowerCase();
      await claimSendSlot(address, ip);
      const code = String(randomInt(0, 10 ** EMAIL_CODE_RULES.digits)).padStart(EMAIL_CODE_RULES.digits, "0");
      const now = clock();
      await repo.pruneExpired(new Date(now.getTime() - 24 * HOUR_MS));
      const id = await repo.insert({
        email: address,
        event,
        codeHash: sealCode(code),
        expiresAt: new Date(now.getTime() + EMAIL_CODE_RULES.validMs),
        ip,
      });
      try {
        await mailer.send(codeMail(email.trim(), event, code, { publicUrl, siteTitle: await siteTitle() }));
      } catch (err) {
        // Nobody received it: drop it, and let the address ask again at once.
        logger.warn({ err, event }, "email code not delivered");
        await repo.delete(id);
        await releaseSendSlot(address);
        throw new AppError(502, msg.codeSendFailed);
      }
      return { retryAfter: CODE_RESEND_SECONDS };
    },

    /**
     * Checks `code` against the newest code sent to `email` for `event`. A wrong one counts a try
     * (the fifth kills the code). With `use`, a right one is spent: it works once only.
     */
    async verify(email: string, event: EmailCodeEvent, code: string, { use }: { use: boolean }): Promise<void> {
      const row = await repo.latest(email.trim(), event);
      if (!row) throw badRequest(msg.codeMissing);
      if (row.usedAt) throw badRequest(msg.codeUsed);
      if (row.attempts >= EMAIL_CODE_RULES.maxWrongTries) throw badRequest(msg.codeTooManyTries);
      const now = clock();
      if (row.expiresAt.getTime() <= now.getTime()) throw badRequest(msg.codeExpired);
      if (!codeMatches(row.codeHash, code.trim())) {
        const tries = await repo.addWrongTry(row.id, EMAIL_CODE_RULES.maxWrongTries);
        if (tries === undefined || tries >= EMAIL_CODE_RULES.maxWrongTries) throw badRequest(msg.codeTooManyTries);
        throw badRequest(msg.codeWrong);
      }
      if (use && !(await repo.markUsed(row.id, now, EMAIL_CODE_RULES.maxWrongTries))) throw badRequest(msg.codeUsed);
    },
  };
}

export type EmailCodeService = ReturnType<typeof emailCodeService>;
