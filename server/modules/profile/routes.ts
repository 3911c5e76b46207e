import multipart from "@fastify/multipart";
import { sessionUserSchema } from "@contracts/accounts";
import {
  AVATAR_MAX_BYTES,
  avatarResultSchema,
  changeEmailSchema,
  changePasswordSchema,
  checkCodeSchema,
  checkEmailResultSchema,
  checkEmailSchema,
  checkNicknameResultSchema,
  checkNicknameSchema,
  profileMessages as msg,
  profilePaths as paths,
  resetPasswordSchema,
  sendCodeResultSchema,
  sendCodeSchema,
  updateProfileSchema,
} from "@contracts/account-profile";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, badRequest } from "../../errors.js";
import { bearerToken } from "../../http/auth.js";
import { rateLimitConfig } from "../../http/rate-limits.js";
import { hashToken } from "../accounts/session-service.js";
import type { AppServices } from "../../services.js";
import { multipartErrorStatus } from "../../lib/multipart-errors.js";

/** An unexpected failure (database, disk) answers the spec's fallback text, logged. */
async function orFallback<T>(log: FastifyBaseLogger, message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.error({ err }, message);
    throw new AppError(500, message);
  }
}

const currentTokenHash = (request: FastifyRequest) => hashToken(bearerToken(request) ?? "");

export const profileRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { profile } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["user"];

  api.post(
    paths.sendCode,
    {
      config: { access: "public", optionalUser: true, rateLimit: rateLimitConfig("emailCodes") },
      schema: {
        tags,
        summary: "发送邮箱验证码 (event: resetpwd 游客; verifyemail 发到当前邮箱、changeemail 发到新邮箱 需登录)",
        description:
          "6位数字，10分钟内有效，仅可使用一次，同一验证码最多输错5次。同一邮箱60秒内只发一次 (429，data.retryAfter 为剩余秒数)，同一IP每小时最多20次。",
        body: sendCodeSchema,
        response: { 200: envelope(sendCodeResultSchema) },
      },
    },
    async (request) => {
      const { event, email } = request.body;
      return ok(await profile.sendCode(event, email ?? "", request.user ?? null, request.ip), msg.codeSent);
    },
  );

  api.post(
    paths.checkCode,
    {
      config: { access: "public", optionalUser: true, rateLimit: rateLimitConfig("emailCodes") },
      schema: {
        tags,
        summary: "校验邮箱验证码 (verifyemail: 用掉验证码，10分钟内可修改邮箱)",
        body: checkCodeSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { event, email, captcha } = request.body;
      await profile.checkCode(event, email ?? "", captcha, request.user ?? null);
      return ok(null, msg.codeOk);
    },
  );

  api.post(
    paths.checkEmailExist,
    {
      config: { access: "public", rateLimit: rateLimitConfig("emailCodes") },
      schema: {
        tags,
        summary: "邮箱是否已注册 (找回密码第一步): 已注册 code 1，未注册 404 该邮箱未注册",
        body: checkEmailSchema,
        response: { 200: envelope(checkEmailResultSchema) },
      },
    },
    async (request) => {
      if (!(await profile.emailExists(request.body.email))) throw new AppError(404, msg.emailNotRegistered, { exists: false });
      return ok({ exists: true }, msg.emailRegistered);
    },
  );

  api.post(
    paths.resetPassword,
    {
      config: { access: "public", rateLimit: rateLimitConfig("resetPassword") },
      schema: {
        tags,
        summary: "凭邮箱验证码重置密码 (该账号所有登录状态失效)",
        body: resetPasswordSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { email, captcha, password } = request.body;
      await orFallback(request.log, msg.resetFailed, () => profile.resetPassword(email, captcha, password));
      return ok(null, msg.resetOk);
    },
  );

  api.post(
    paths.changePassword,
    {
      config: { access: "user" },
      schema: {
        tags,
        summary: "修改密码 (原密码; 其他设备的登录状态失效，当前保持登录)",
        body: changePasswordSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { oldpassword, newpassword } = request.body;
      await orFallback(request.log, msg.passwordChangeFailed, () =>
        profile.changePassword(request.user!, oldpassword, newpassword, currentTokenHash(request)),
      );
      return ok(null, msg.passwordChanged);
    },
  );

  api.post(
    paths.changeEmail,
    {
      config: { access: "user" },
      schema: {
        tags,
        summary: "修改邮箱 (需10分钟内验证过当前邮箱，并填写新邮箱收到的验证码)",
        body: changeEmailSchema,
        response: { 200: envelope(sessionUserSchema) },
      },
    },
    async (request) => {
      const { email, captcha } = request.body;
      const user = await orFallback(request.log, msg.emailChangeFailed, () => profile.changeEmail(request.user!, email, captcha));
      return ok(user, msg.emailChanged);
    },
  );

  api.post(
    paths.checkNickname,
    {
      config: { access: "user" },
      schema: {
        tags,
        summary: "昵称是否可用 (可用 code 1; 已被他人使用 409 昵称已被使用; id 总是当前用户)",
        body: checkNicknameSchema,
        response: { 200: envelope(checkNicknameResultSchema) },
      },
    },
    async (request) => {
      if (!(await profile.nicknameAvailable(request.user!, request.body.nickname))) {
        throw new AppError(409, msg.nicknameTaken, { available: false });
      }
      return ok({ available: true }, msg.nicknameAvailable);
    },
  );

  api.post(
    paths.updateProfile,
    {
      config: { access: "user" },
      schema: {
        tags,
        summary: "保存个人资料 (昵称 2-20、个人简介 ≤200; 用户名和邮箱不在此修改)",
        body: updateProfileSchema,
        response: { 200: envelope(sessionUserSchema) },
      },
    },
    async (request) => {
      const user = await orFallback(request.log, msg.saveFailed, () => profile.updateProfile(request.user!, request.body));
      return ok(user, msg.saveOk);
    },
  );

  // Multipart only here, in its own scope: no other route accepts uploads.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      paths.uploadAvatar,
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "上传头像 (multipart 字段 avatar，图片≤5MB; 解码后裁成256×256 WebP，去掉元数据)",
          consumes: ["multipart/form-data"],
          // For the docs only: the multipart parser leaves the body empty, the handler streams the file.
          body: avatarUploadDocSchema,
          response: { 200: envelope(avatarResultSchema) },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(msg.avatarMissing);
        const bytes = await readAvatarPart(request);
        const url = await orFallback(request.log, msg.avatarFailed, () => services.avatars.replace(request.user!.id, bytes));
        return ok({ url }, msg.avatarOk);
      },
    );
  });
};

const avatarUploadDocSchema = z
  .object({ avatar: z.string().meta({ format: "binary", description: "图片文件 (JPEG/PNG/WebP/GIF/AVIF)，≤5MB" }) })
  .nullish();

/** The `avatar` file's bytes, at most AVATAR_MAX_BYTES (more is refused while it arrives). */
async function readAvatarPart(request: FastifyRequest): Promise<Buffer> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== "avatar") throw badRequest(msg.avatarMissing);
    return await part.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(413, msg.avatarTooLarge);
    const status = multipartErrorStatus(err);
    if (status >= 400 && status < 500) throw badRequest(msg.avatarNotImage);
    throw err;
  }
}
