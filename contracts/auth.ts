import { z } from "zod";
import { captchaField, emailField, fieldMessages, loginPasswordField, registerPasswordField, usernameField } from "./account-fields";
import { sessionUserSchema } from "./accounts";

/** Where the captcha image is served (spec section 7): `GET /captcha.html?t={timestamp}`. */
export const CAPTCHA_PATH = "/captcha.html";

/** Spec section 4 / 9: the login captcha is required once `iscaptcha` reaches this. */
export const CAPTCHA_THRESHOLD = 5;

/** Minutes a login lock lasts; the message below names it. */
export const LOGIN_LOCK_MINUTES = 15;

/** Texts of login and register (spec sections 7, 8; clear Chinese where the spec has none). */
export const authMessages = {
  loginOk: "登录成功",
  loginFailed: "登录失败",
  loginUnavailable: "登录失败，请稍后重试",
  captchaRequired: fieldMessages.captchaRequired,
  captchaWrong: "验证码错误",
  loginLocked: `登录失败次数过多，请${LOGIN_LOCK_MINUTES}分钟后再试`,
  accountDisabled: "账号已被禁用",
  registerOk: "注册成功，请登录",
  registerFailed: "注册失败",
  usernameTaken: "用户名已被注册",
  emailTaken: "邮箱已被注册",
  registerTooOften: "注册过于频繁，请1小时后再试",
  logoutFailed: "退出失败，请重试",
} as const;

/** Login's account: a username or an email, any letter case; 254 is an address's limit. */
export const loginAccountField = z
  .string({ error: fieldMessages.accountRequired })
  .trim()
  .min(1, { error: fieldMessages.accountRequired })
  .max(254, { error: authMessages.loginFailed });

/**
 * `POST /api/user/login`. The captcha is sent only when the form shows it (iscaptcha >= 5);
 * a blank one counts as none (the server then answers 请输入验证码 if it needs one).
 */
export const loginRequestSchema = z.object({
  account: loginAccountField,
  password: loginPasswordField,
  captcha: z.string({ error: authMessages.captchaWrong }).trim().max(10, { error: authMessages.captchaWrong }).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What a login answers besides the token: the failures counted so far (0 after a success). */
export const loginStateSchema = z.object({
  /** max(failures of this account, failures from this address) in the current window. */
  iscaptcha: z.number().int(),
});

export const loginResultSchema = loginStateSchema.extend({
  /** The bearer token; the browser keeps it in localStorage `token`. */
  token: z.string(),
  user: sessionUserSchema,
});
export type LoginResult = z.infer<typeof loginResultSchema>;

/** Success carries the token; a failure carries only `iscaptcha` (or null for bad input). */
export const loginAnswerDataSchema = z.union([loginResultSchema, loginStateSchema, z.null()]);

/** `POST /api/user/register`; the captcha is always required. */
export const registerRequestSchema = z
  .object({
    username: usernameField,
    email: emailField,
    password: registerPasswordField,
    confirm: z.string({ error: fieldMessages.registerConfirmRequired }).min(1, { error: fieldMessages.registerConfirmRequired }).max(128, { error: fieldMessages.registerConfirmMismatch }),
    captcha: captchaField,
  })
  .refine((body) => body.password === body.confirm, { error: fieldMessages.registerConfirmMismatch, path: ["confirm"] });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
