import type { FastifyInstance } from "fastify";
import { CAPTCHA_PATH } from "@contracts/auth";
import { CAPTCHA_COOKIE, captchaKey } from "../modules/accounts/captcha.js";

export interface SolvedCaptcha {
  /** The browser's captcha id (the cookie's value). */
  id: string;
  /** `{ cookie: "captcha_id=…" }` for app.inject. */
  headers: { cookie: string };
  /** The image's text, read from the server's ephemeral store, as a person would read the image. */
  answer: string;
}

/**
 * Fetches a captcha image as a browser does (GET /captcha.html) and reads its answer from the
 * app's ephemeral store: tests of login, registration and the admin login solve captchas so.
 */
export async function solveCaptcha(app: FastifyInstance, opts: { remoteAddress?: string } = {}): Promise<SolvedCaptcha> {
  const res = await app.inject({ url: `${CAPTCHA_PATH}?t=${Date.now()}`, remoteAddress: opts.remoteAddress });
  if (res.statusCode !== 200) throw new Error(`captcha: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === CAPTCHA_COOKIE);
  if (!cookie) throw new Error("captcha: no cookie");
  const answer = await app.services.ephemeral.get(captchaKey(cookie.value));
  if (!answer) throw new Error("captcha: no stored answer");
  return { id: cookie.value, headers: { cookie: `${CAPTCHA_COOKIE}=${cookie.value}` }, answer };
}
