import { z } from "zod";
import { fieldMessages } from "./auth-texts";

export { fieldMessages };

/**
 * The account fields' rules and messages (spec section 5), written once: the server's request
 * schemas and the web forms' rules (web/app/lib/form-rules.ts) both use them.
 */

/** Length in characters as a person counts them (一 is one, so is 😀). */
export const charLength = (s: string) => [...s].length;

const trimmed = (required: string) => z.string({ error: required }).trim().min(1, { error: required });

/** Simple address pattern (spec: "simple address pattern"); 254 is the SMTP limit. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailField = trimmed(fieldMessages.emailRequired)
  .max(254, { error: fieldMessages.emailFormat })
  .regex(EMAIL_PATTERN, { error: fieldMessages.emailFormat });

/** Register: 3 to 20 characters; letters, digits, underscore and Chinese (no spaces or @). */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;
export const usernameField = trimmed(fieldMessages.usernameRequired)
  .refine((s) => charLength(s) >= 3 && charLength(s) <= 20, { error: fieldMessages.usernameLength })
  .refine((s) => USERNAME_PATTERN.test(s), { error: "用户名只能包含中文、字母、数字、下划线和横线" });

/**
 * A new admin's account name: the username's rules in the back office's words (the form labels
 * it 账号, and the admin login says 请输入账号, spec section 7).
 */
export const adminUsernameField = trimmed(fieldMessages.adminAccountRequired)
  .refine((s) => charLength(s) >= 3 && charLength(s) <= 20, { error: fieldMessages.adminAccountLength })
  .refine((s) => USERNAME_PATTERN.test(s), { error: "账号只能包含中文、字母、数字、下划线和横线" });

/** Register's password: at least 6 (spec); 128 caps what we hash. */
export const registerPasswordField = z
  .string({ error: fieldMessages.passwordRequired })
  .min(1, { error: fieldMessages.passwordRequired })
  .min(6, { error: fieldMessages.registerPasswordMin })
  .max(128, { error: "密码过长" });

/** Reset and change password: 6 to 30 (the spec's two wordings). */
export const resetPasswordField = z
  .string({ error: fieldMessages.passwordRequired })
  .min(1, { error: fieldMessages.passwordRequired })
  .refine((s) => s.length >= 6 && s.length <= 30, { error: fieldMessages.passwordLength });
export const changePasswordField = z
  .string({ error: fieldMessages.passwordRequired })
  .min(1, { error: fieldMessages.passwordRequired })
  .refine((s) => s.length >= 6 && s.length <= 30, { error: fieldMessages.changePasswordLength });

/** Login: any non-empty password (old accounts may predate today's rules); capped. */
export const loginPasswordField = z
  .string({ error: fieldMessages.passwordRequired })
  .min(1, { error: fieldMessages.passwordRequired })
  .max(128, { error: fieldMessages.passwordRequired });

export const nicknameField = trimmed(fieldMessages.nicknameRequired).refine(
  (s) => charLength(s) >= 2 && charLength(s) <= 20,
  { error: fieldMessages.nicknameLength },
);

/** The bio's limit (spec: at most 200). A soft limit in the form, as the comment box's (ADR 0060). */
export const BIO_MAX_CHARS = 200;

export const bioField = z
  .string()
  .refine((s) => charLength(s) <= BIO_MAX_CHARS, { error: fieldMessages.bioLength });

/** Email codes: 4 to 6 characters. */
export const emailCodeField = trimmed(fieldMessages.codeRequired).refine(
  (s) => s.length >= 4 && s.length <= 6,
  { error: fieldMessages.codeLength },
);

/** Captcha answers: required when shown; never longer than the image's text. */
export const captchaField = trimmed(fieldMessages.captchaRequired).max(10, { error: fieldMessages.captchaRequired });
