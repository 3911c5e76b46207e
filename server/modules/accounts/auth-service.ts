import { randomBytes } from "node:crypto";
import { authMessages, CAPTCHA_THRESHOLD } from "@contracts/auth";
import type { LoginRequest, LoginResult, RegisterRequest } from "@contracts/auth-schemas";
import type { AppDatabase } from "../../db/open.js";
import { AppError } from "../../errors.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import type { CaptchaService } from "./captcha.js";
import { addressKey, loginThrottle } from "./login-throttle.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { type SessionService, toSessionUser } from "./session-service.js";
import { userRepo } from "./user-repo.js";

/** Registrations one address may make per hour. */
export const REGISTRATIONS_PER_HOUR = 10;
const HOUR_MS = 3600_000;

/** Who is asking: the client's address, browser and captcha cookie. */
export interface ClientMeta {
  ip: string;
  userAgent?: string;
  /** The captcha id from the browser's httpOnly cookie, if any. */
  captchaId?: string;
}

/** How login and register answer a refusal: status, message and (login) the failure count. */
const loginRefusal = (status: number, msg: string, failures: number) => new AppError(status, msg, { iscaptcha: failures });

/**
 * Login and registration of site members (issue 10). Failures count per account and per
 * address (login-throttle.ts); from the 5th the captcha is required, from the 20th of an account
 * (100th of an address) in 15 minutes the account (address) is locked for 15 minutes. A refusal
 * never says whether the account exists: unknown accounts count, lock and take as long
 * (a password check against a dummy hash) as known ones.
 */
export function authService(db: AppDatabase, deps: { sessions: SessionService; captcha: CaptchaService; ephemeral: EphemeralStore }) {
  const repo = userRepo(db);
  const throttle = loginThrottle(deps.ephemeral, "user");
  let dummyHash: Promise<string> | undefined;
  /** An argon2id hash of nothing anyone knows, with the same cost as real ones. */
  const dummy = () => (dummyHash ??= hashPassword(randomBytes(24).toString("base64url")));
  // Made now, so the first unknown account does not take one hashing longer than the rest.
  void dummy();

  return {
    /** Refusals are AppErrors whose data is `{ iscaptcha }`. */
    async login(input: LoginRequest, client: ClientMeta): Promise<LoginResult> {
      const account = input.account.trim().toLowerCase();
      const before = await throttle.counts(account, client.ip);
      if (before.locked) throw loginRefusal(429, authMessages.loginLocked, before.failures);

      const refuse = async (msg: string) => {
        const after = await throttle.fail(account, client.ip);
        return after.locked ? loginRefusal(429, authMessages.loginLocked, after.failures) : loginRefusal(401, msg, after.failures);
      };

      // The captcha comes first: without it nothing (no password hashing) is spent on a guess.
      if (before.failures >= CAPTCHA_THRESHOLD) {
        const answer = input.captcha?.trim();
        if (!answer) throw await refuse(authMessages.captchaRequired);
        if (!(await deps.captcha.verify(client.captchaId, answer))) throw await refuse(authMessages.captchaWrong);
      }

      const user = await repo.findByAccount(account);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummy()), input.password);
      if (!user || !passwordOk) throw await refuse(authMessages.loginFailed);
      // Only someone who knows the password learns that the account is disabled.
      if (user.status !== 1) throw loginRefusal(403, authMessages.accountDisabled, before.failures);

      await throttle.succeed(account);
      const token = await deps.sessions.createUserSession(user.id, { ip: client.ip, userAgent: client.userAgent });
      await repo.recordLogin({ userId: user.id, ip: client.ip, userAgent: client.userAgent });
      return { token, user: toSessionUser(user), iscaptcha: 0 };
    },

    /** A new member (no login: the spec says 注册成功，请登录). Refusals are AppErrors. */
    async register(input: RegisterRequest, client: ClientMeta): Promise<void> {
      const perHour = `register:ip:${addressKey(client.ip)}`;
      if ((await deps.ephemeral.count(perHour)) >= REGISTRATIONS_PER_HOUR) throw new AppError(429, authMessages.registerTooOften);
      if (!(await deps.captcha.verify(client.captchaId, input.captcha))) throw new AppError(400, authMessages.captchaWrong);

      const username = input.username.trim();
      const email = input.email.trim();
      const takenMessage = (field: "username" | "email" | null) =>
        field === "username" ? authMessages.usernameTaken : field === "email" ? authMessages.emailTaken : authMessages.registerFailed;

      const takenBefore = await repo.findTaken(username, email);
      if (takenBefore) throw new AppError(409, takenMessage(takenBefore));
      const created = await repo.insertIfFree({ username, email, passwordHash: await hashPassword(input.password) });
      // Someone registered the same name or address while the password was hashed.
      if (!created) throw new AppError(409, takenMessage(await repo.findTaken(username, email)));
      await deps.ephemeral.increment(perHour, HOUR_MS);
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
