import { randomBytes } from "node:crypto";
import { authMessages } from "@contracts/auth";
import type { LoginRequest, LoginResult, RegisterRequest } from "@contracts/auth-schemas";
import type { AppDatabase } from "../../db/open.js";
import { AppError } from "../../errors.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import type { CaptchaService } from "./captcha.js";
import { addressKey, loginGate, loginThrottle } from "./login-throttle.js";
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
 * at one address (100th of an address) in 15 minutes that pair (address) is locked for 15 minutes
 * to attempts without a solved captcha (loginGate). A refusal
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
      const gate = await loginGate(throttle, {
        account,
        ip: client.ip,
        captcha: input.captcha,
        verifyCaptcha: (answer) => deps.captcha.verify(client.captchaId, answer),
      });

      const user = await repo.findByAccount(account);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummy()), input.password);
      if (!user || !passwordOk) throw await gate.refuse(authMessages.loginFailed);
      // Only someone who knows the password learns that the account is disabled.
      if (user.status !== 1) throw loginRefusal(403, authMessages.accountDisabled, gate.before.failures);

      await gate.succeed();
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
