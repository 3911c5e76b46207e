import type { SessionUser } from "@contracts/accounts";
import { CODE_VALID_MINUTES, type EmailCodeEvent, profileMessages as msg } from "@contracts/account-profile";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from "../../errors.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import type { EmailCodeService } from "../accounts/email-code-service.js";
import { hashPassword, verifyPassword } from "../accounts/passwords.js";
import { type SessionService, toSessionUser } from "../accounts/session-service.js";
import { isUniqueViolation, profileRepo } from "./profile-repo.js";

export interface ProfileDeps {
  codes: EmailCodeService;
  sessions: SessionService;
  ephemeral: EphemeralStore;
}

/** Wrong old passwords per member per hour before a password change is refused for a while. */
const OLD_PASSWORD_TRIES_PER_HOUR = 10;
const GRANT_MS = CODE_VALID_MINUTES * 60_000;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The rules around a member's own account (issue 10; ADR 0018): who may get which code, the
 * password reset and change, the email change in two verified steps, nickname and bio.
 */
export function profileService(db: AppDatabase, { codes, sessions, ephemeral }: ProfileDeps) {
  const repo = profileRepo(db);
  /** Set when a member proved they read their current address (check-code, verifyemail). */
  const grantKey = (userId: number) => `email-change:verified:${userId}`;
  /** Who asked for the newest changeemail code of an address: only they may check or use it. */
  const requesterKey = (email: string) => `email-change:requested-by:${email.trim().toLowerCase()}`;
  async function requireOwnChangeCode(member: SessionUser, email: string) {
    if ((await ephemeral.get(requesterKey(email))) !== String(member.id)) throw badRequest(msg.codeMissing);
  }

  /** The email change's first step is done: the member's current address was verified by its code. */
  async function requireCurrentVerified(member: SessionUser) {
    const verified = await ephemeral.get(grantKey(member.id));
    if (!verified || verified !== member.email.toLowerCase()) throw forbidden(msg.verifyCurrentFirst);
  }

  async function refreshed(userId: number): Promise<SessionUser> {
    const row = await repo.byId(userId);
    if (!row) throw unauthorized("请先登录");
    return toSessionUser(row);
  }

  return {
    /** Whether an address belongs to a member (the spec's checkEmailExist; the forgot-password step 0). */
    async emailExists(email: string): Promise<boolean> {
      return (await repo.byEmail(email)) !== undefined;
    },

    /**
     * Sends a code. resetpwd: to a registered, enabled address (anyone may ask). verifyemail: to
     * the member's own current address, whatever was typed. changeemail: to a new address no
     * member uses yet.
     */
    async sendCode(event: EmailCodeEvent, email: string, member: SessionUser | null, ip: string) {
      if (event === "resetpwd") {
        const owner = await repo.byEmail(email);
        if (!owner) throw notFound(msg.emailNotRegistered);
        if (owner.status !== 1) throw forbidden(msg.accountDisabled);
        return codes.send(owner.email, event, ip);
      }
      if (!member) throw unauthorized("请先登录");
      if (event === "verifyemail") return codes.send(member.email, event, ip);
      // The new address gets mail only once the current one was verified in this flow (step 1):
      // otherwise any member could make the site mail codes to any address.
      await requireCurrentVerified(member);
      if (sameAddress(email, member.email)) throw badRequest(msg.emailSameAsCurrent);
      if (await repo.byEmail(email)) throw conflict(msg.emailTaken);
      const sent = await codes.send(email, event, ip);
      await ephemeral.set(requesterKey(email), String(member.id), GRANT_MS);
      return sent;
    },

    /**
     * The spec's checkCode. resetpwd and changeemail: checks without using the code (the reset
     * or the change uses it). verifyemail: uses the code and lets the member change the address
     * in the next 10 minutes.
     */
    async checkCode(event: EmailCodeEvent, email: string, code: string, member: SessionUser | null): Promise<void> {
      if (event === "resetpwd") return codes.verify(email, event, code, { use: false });
      if (!member) throw unauthorized("请先登录");
      if (event === "changeemail") {
        await requireOwnChangeCode(member, email);
        return codes.verify(email, event, code, { use: false });
      }
      await codes.verify(member.email, event, code, { use: true });
      await ephemeral.set(grantKey(member.id), member.email.toLowerCase(), GRANT_MS);
    },

    /** Forgot password: the code proves the address; every session of the account ends. */
    async resetPassword(email: string, code: string, password: string): Promise<void> {
      const owner = await repo.byEmail(email);
      if (!owner) throw notFound(msg.emailNotRegistered);
      if (owner.status !== 1) throw forbidden(msg.accountDisabled);
      await codes.verify(owner.email, "resetpwd", code, { use: true });
      await repo.setPasswordHash(owner.id, await hashPassword(password));
      // After the new hash: a session made with the old password meanwhile ends too.
      await sessions.revokeUserSessions(owner.id);
    },

    /** Needs the old password; other sessions end, the one asking stays signed in. */
    async changePassword(member: SessionUser, oldPassword: string, newPassword: string, currentTokenHash: string): Promise<void> {
      const triesKey = `password-change:wrong:${member.id}`;
      if ((await ephemeral.count(triesKey)) >= OLD_PASSWORD_TRIES_PER_HOUR) throw new AppError(429, msg.oldPasswordTooManyTries);
      const row = await repo.byId(member.id);
      if (!row) throw unauthorized("请先登录");
      if (!(await verifyPassword(row.passwordHash, oldPassword))) {
        await ephemeral.increment(triesKey, 3600_000);
        throw badRequest(msg.oldPasswordWrong);
      }
      if (oldPassword === newPassword) throw badRequest(msg.samePassword);
      await repo.setPasswordHash(member.id, await hashPassword(newPassword));
      await sessions.revokeUserSessions(member.id, { except: currentTokenHash });
    },

    /**
     * The email change's second step: the current address must have been verified (checkCode
     * verifyemail) within 10 minutes, and the new address's own code is used here.
     */
    async changeEmail(member: SessionUser, email: string, code: string): Promise<SessionUser> {
      await requireCurrentVerified(member);
      if (sameAddress(email, member.email)) throw badRequest(msg.emailSameAsCurrent);
      if (await repo.byEmail(email)) throw conflict(msg.emailTaken);
      await requireOwnChangeCode(member, email);
      await codes.verify(email, "changeemail", code, { use: true });
      try {
        await repo.setEmail(member.id, email.trim());
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(msg.emailTaken);
        throw err;
      }
      await ephemeral.delete(grantKey(member.id));
      return refreshed(member.id);
    },

    /** Whether the nickname is free for this member (their own current one is). */
    async nicknameAvailable(member: SessionUser, nickname: string): Promise<boolean> {
      return !(await repo.nicknameTaken(nickname, member.id));
    },

    /** Nickname (checked again here) and bio; username and email are not changed here. */
    async updateProfile(member: SessionUser, patch: { nickname: string; bio: string }): Promise<SessionUser> {
      const nickname = patch.nickname.trim();
      if (await repo.nicknameTaken(nickname, member.id)) throw conflict(msg.nicknameTaken);
      const row = await repo.updateProfile(member.id, { nickname, bio: patch.bio.trim() });
      if (!row) throw unauthorized("请先登录");
      return toSessionUser(row);
    },

    /** The member as the session shows them now (after a change). */
    current: refreshed,
  };
}

export type ProfileService = ReturnType<typeof profileService>;
