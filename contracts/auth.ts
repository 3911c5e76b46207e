import { z } from "zod";
import { fieldMessages } from "./account-fields";

export { authMessages, CAPTCHA_PATH, CAPTCHA_THRESHOLD, LOGIN_LOCK_MINUTES } from "./auth-texts";

/*
 * Texts, constants and single fields of login and registration: the web's forms import these.
 * The request and answer objects are in auth-schemas.ts: zod probes `new Function` when it
 * builds an object schema, which the site's CSP reports as a violation in the browser.
 */

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
