import { z } from "zod";
import { captchaField, emailField, fieldMessages, loginPasswordField, registerPasswordField, usernameField } from "./account-fields";
import { sessionUserSchema } from "./accounts";
import { authMessages, loginAccountField, registerConfirmField } from "./auth";

/**
 * Request and answer schemas of login and registration (server side; the web imports only
 * their types, see auth.ts).
 */

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

/**
 * `POST /api/user/register`: the spec's `username, email, password, captcha` (the captcha always
 * required). The confirmation is the form's concern; a client that sends `confirm` has it checked.
 */
export const registerRequestSchema = z
  .object({
    username: usernameField,
    email: emailField,
    password: registerPasswordField,
    confirm: registerConfirmField.optional(),
    captcha: captchaField,
  })
  .refine((body) => body.confirm === undefined || body.password === body.confirm, { error: fieldMessages.registerConfirmMismatch, path: ["confirm"] });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
