import { z } from "zod";
import { fieldMessages } from "./account-fields";

/*
 * Texts, constants and single fields of login and registration: the web's forms import these.
 * The request and answer objects are in auth-schemas.ts: zod probes `new Function` when it
 * builds an object schema, which the site's CSP reports as a violation in the browser.
 */

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
  .max(254, { error: "用户名/邮箱过长" });

/** Register's password confirmation: required; that it matches is checked on the whole form. */
export const registerConfirmField = z
  .string({ error: fieldMessages.registerConfirmRequired })
  .min(1, { error: fieldMessages.registerConfirmRequired })
  .max(128, { error: fieldMessages.registerConfirmMismatch });
