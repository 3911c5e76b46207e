import { randomInt } from "node:crypto";
import svgCaptcha from "svg-captcha";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import { randomToken } from "../../lib/random-token.js";

/** The httpOnly cookie that binds a browser to its current captcha (its random id). */
export const CAPTCHA_COOKIE = "captcha_id";
/** An answer is valid this long, once (issue 10). */
export const CAPTCHA_TTL_MS = 5 * 60_000;
/** Letters and digits no one mistakes for another (no 0/O, 1/I/L, 2/Z, 5/S); any letter case is accepted. */
export const CAPTCHA_CHARS = "ABCDEFGHJKMNPQRTUVWXY346789";
const CAPTCHA_LENGTH = 4;
const ID_SHAPE = /^[A-Za-z0-9_-]{22}$/;

/** Where an answer waits in the ephemeral store (tests read it from there to solve an image). */
export const captchaKey = (id: string) => `captcha:${id}`;

// svg-captcha's default export renders a given text; its typings only declare the helpers.
const render = svgCaptcha as unknown as (text: string, options: svgCaptcha.ConfigObject) => string;
// Dark grey characters and lines on a transparent ground (the page gives it a light one).
const IMAGE = { width: 120, height: 40, fontSize: 46, noise: 2, color: false } as const;

export interface IssuedCaptcha {
  /** Random id for the browser's cookie; the answer stays on the server. */
  id: string;
  /** The image, an SVG document of paths (no text, no script). */
  svg: string;
}

/**
 * Image captchas for the site login, registration and the admin login. The text comes from
 * the system's random source (svg-captcha's own uses Math.random), the answer waits in the
 * ephemeral store under a random id for five minutes, and `verify` takes it: an answer works
 * once, and a wrong guess uses the image up too (no trying every answer on one image).
 */
export function captchaService(store: EphemeralStore) {
  return {
    async issue(): Promise<IssuedCaptcha> {
      const text = Array.from({ length: CAPTCHA_LENGTH }, () => CAPTCHA_CHARS[randomInt(CAPTCHA_CHARS.length)]).join("");
      const id = randomToken(16);
      await store.set(captchaKey(id), text, CAPTCHA_TTL_MS);
      return { id, svg: render(text, IMAGE) };
    },

    /** Whether `answer` (any case, spaces around ignored) is the text of captcha `id`; the captcha is gone afterwards. */
    async verify(id: string | undefined, answer: string | undefined): Promise<boolean> {
      if (!id || !ID_SHAPE.test(id)) return false;
      const expected = await store.take(captchaKey(id));
      const given = (answer ?? "").trim().toUpperCase();
      return expected !== undefined && given.length > 0 && given === expected;
    },

    /** Drops a captcha nobody will answer (the browser asked for a new image). */
    async discard(id: string | undefined): Promise<void> {
      if (id && ID_SHAPE.test(id)) await store.delete(captchaKey(id));
    },
  };
}

export type CaptchaService = ReturnType<typeof captchaService>;
