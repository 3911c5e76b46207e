import { authMessages, CAPTCHA_PATH } from "@contracts/auth";
import { loginAnswerDataSchema, loginRequestSchema, registerRequestSchema } from "@contracts/auth-schemas";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.js";
import { rateLimitConfig } from "../../http/rate-limits.js";
import type { AppServices } from "../../services.js";
import { BODY_LIMITS } from "../../http/body-limits.js";
import type { ClientMeta } from "./auth-service.js";
import { CAPTCHA_COOKIE, CAPTCHA_TTL_MS } from "./captcha.js";

const AUTH_BODY_LIMIT = BODY_LIMITS.login;

/** The client's address, browser and captcha cookie, as the auth service wants them. */
export function clientMeta(request: FastifyRequest): ClientMeta {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: agent?.slice(0, 512), captchaId: request.cookies[CAPTCHA_COOKIE] };
}

/** Sets the cookie that binds this browser to a captcha (also for the admin login, issue 12). */
export function setCaptchaCookie(request: FastifyRequest, reply: FastifyReply, id: string) {
  reply.setCookie(CAPTCHA_COOKIE, id, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    maxAge: CAPTCHA_TTL_MS / 1000,
  });
}

/** Our refusals pass; anything else is logged and answered with the spec's "…请稍后重试". */
async function orUnavailable<T>(log: FastifyBaseLogger, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.error({ err }, "account call failed");
    throw new AppError(500, message);
  }
}

/** GET /captcha.html, POST /api/user/login, POST /api/user/register (ADR 0017). */
export const authRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { auth, captcha } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The spec's address; `t` only defeats caches. A new image replaces the browser's last one.
  api.get(CAPTCHA_PATH, { config: { access: "public", rateLimit: rateLimitConfig("captcha") } }, async (request, reply) => {
    await captcha.discard(request.cookies[CAPTCHA_COOKIE]);
    const { id, svg } = await captcha.issue();
    setCaptchaCookie(request, reply, id);
    return reply
      .header("cache-control", "no-store")
      .header("content-security-policy", "default-src 'none'")
      .type("image/svg+xml; charset=utf-8")
      .send(svg);
  });

  api.post(
    "/api/user/login",
    {
      config: { access: "public" },
      bodyLimit: AUTH_BODY_LIMIT,
      schema: {
        tags: ["user"],
        summary: "登录 (用户名或邮箱; 失败5次起须填验证码, data.iscaptcha 为失败次数)",
        description:
          "失败: code 0, data.iscaptcha = 15分钟内该账号与该地址失败次数的较大者; >= 5 时须带 captcha (GET /captcha.html 的答案, Cookie captcha_id)。" +
          "同一账号15分钟内失败20次 (同一地址100次) 锁定15分钟 (429)。账号被禁用: 403 (仅在密码正确时)。",
        body: loginRequestSchema,
        response: { 200: envelope(loginAnswerDataSchema) },
      },
    },
    async (request) => {
      const result = await orUnavailable(request.log, authMessages.loginUnavailable, () => auth.login(request.body, clientMeta(request)));
      return ok(result, authMessages.loginOk);
    },
  );

  api.post(
    "/api/user/register",
    {
      config: { access: "public" },
      bodyLimit: AUTH_BODY_LIMIT,
      schema: {
        tags: ["user"],
        summary: "注册 (须填验证码; 成功后请登录)",
        description: "用户名与邮箱不分大小写、忽略首尾空格唯一。每个地址每小时最多注册10个账号 (429)。",
        body: registerRequestSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      await orUnavailable(request.log, authMessages.registerFailed, () => auth.register(request.body, clientMeta(request)));
      return ok(null, authMessages.registerOk);
    },
  );
};
