import { z } from "zod";
import {
  bioField,
  changePasswordField,
  emailCodeField,
  emailField,
  fieldMessages,
  nicknameField,
  resetPasswordField,
} from "./account-fields";
import { EMAIL_CODE_EVENTS, type EmailCodeEvent, profileMessages } from "./account-profile-texts";

/**
 * The request bodies of the email-code and profile calls (ADR 0018), validated by the server
 * and shown in its OpenAPI page. Browser code imports `./account-profile-texts` instead: a
 * zod object schema probes for eval when it is built, which the site's CSP forbids.
 */
export * from "./account-profile-texts";

const eventField = z.enum(EMAIL_CODE_EVENTS, { error: "验证码用途无效" });

/**
 * The address an event needs: resetpwd and changeemail name one (checked like every email
 * field); verifyemail always means the member's current address, so it may be left out.
 */
const eventEmailField = z.string().max(254, { error: fieldMessages.emailFormat }).optional();
function requireEventEmail(body: { event: EmailCodeEvent; email?: string }, ctx: z.RefinementCtx) {
  if (body.event === "verifyemail") return;
  const email = emailField.safeParse(body.email ?? "");
  if (!email.success) ctx.addIssue({ code: "custom", path: ["email"], message: email.error.issues[0].message });
}

export const sendCodeSchema = z.object({ event: eventField, email: eventEmailField }).superRefine(requireEventEmail);
export type SendCodeRequest = z.infer<typeof sendCodeSchema>;

export const sendCodeResultSchema = z.object({
  /** Seconds until the next code may be asked for (the button's countdown). */
  retryAfter: z.number().int(),
});

export const checkCodeSchema = z
  .object({ event: eventField, email: eventEmailField, captcha: emailCodeField })
  .superRefine(requireEventEmail);

export const checkEmailSchema = z.object({ email: emailField });
export const checkEmailResultSchema = z.object({ exists: z.boolean() });

export const resetPasswordSchema = z.object({ email: emailField, captcha: emailCodeField, password: resetPasswordField });

export const changePasswordSchema = z.object({
  oldpassword: z
    .string({ error: fieldMessages.oldPasswordRequired })
    .min(1, { error: fieldMessages.oldPasswordRequired })
    .max(128, { error: profileMessages.oldPasswordWrong }),
  newpassword: changePasswordField,
});

export const changeEmailSchema = z.object({ email: emailField, captcha: emailCodeField });

/** `id` is the asking member's own (spec); the server always uses the session's id instead. */
export const checkNicknameSchema = z.object({ nickname: nicknameField, id: z.coerce.number().int().optional() });
export const checkNicknameResultSchema = z.object({ available: z.boolean() });

/** Only nickname and bio: username and email are not changed here (other keys are dropped). */
export const updateProfileSchema = z.object({ nickname: nicknameField, bio: bioField.default("") });

export const avatarResultSchema = z.object({ url: z.string() });
