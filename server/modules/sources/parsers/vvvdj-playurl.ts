import { SourceError } from "../types.js";

/**
 * 清风DJ hides the stream address of a play page in a call
 * `playurl=x.O000O0OO0O0OO('a','b');` (SOURCES.md, from its public downloaders):
 * - `a` is a 2-character mode, then groups of 4: one character and 3 digits;
 * - k = (digits − 100) / 3 indexes the key `b`, 1-based, from the front when the mode is `e0`,
 *   from the back otherwise;
 * - each output character's code is 2·code(character) − code(b[k]);
 * - the result has no scheme (`//tspc.vvvdj.com/…m3u8?upt=…`): we prefix `https:`.
 * Anything that does not decode to a web address is a changed layout.
 */

const SOURCE = "vvvdj";
const CALL = /playurl\s*=\s*[\w$]+\.(O[0O]{5,})\s*\(\s*(['"])([^'"]*)\2\s*,\s*(['"])([^'"]*)\4\s*\)/u;

function layout(message: string): SourceError {
  return new SourceError(SOURCE, "layout", `清风DJ play address: ${message}`);
}

/** The two arguments of the obfuscated call in a play page, or null when the page has none. */
export function findPlayUrlCall(html: string): { encoded: string; key: string } | null {
  const match = CALL.exec(html);
  return match ? { encoded: match[3], key: match[5] } : null;
}

export function decodePlayUrl(encoded: string, key: string): string {
  if (encoded.length < 6 || (encoded.length - 2) % 4 !== 0) throw layout(`encoded length ${encoded.length} is not 2 + 4n`);
  if (key.length === 0) throw layout("empty key");
  const forward = encoded.slice(0, 2) === "e0";
  let out = "";
  for (let at = 2; at < encoded.length; at += 4) {
    const character = encoded.charCodeAt(at);
    const digits = encoded.slice(at + 1, at + 4);
    if (!/^\d{3}$/u.test(digits)) throw layout(`group ${encoded.slice(at, at + 4)} has no 3 digits`);
    const steps = Number(digits) - 100;
    const k = steps / 3;
    if (!Number.isInteger(k) || k < 1 || k > key.length) throw layout(`index ${digits} is outside the key (${key.length})`);
    const keyCode = key.charCodeAt(forward ? k - 1 : key.length - k);
    const code = 2 * character - keyCode;
    // Addresses are printable ASCII: anything else means we no longer read the scheme right.
    if (code < 0x21 || code > 0x7e) throw layout(`character ${code} is not part of an address`);
    out += String.fromCharCode(code);
  }
  const address = out.startsWith("//") ? `https:${out}` : out;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw layout(`"${out.slice(0, 40)}" is not an address`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw layout(`unexpected scheme ${url.protocol}`);
  return url.toString();
}

/**
 * When a stream address stops working, from its `upt` token: `{8 hex}{10 digits}`, the last 10
 * digits looking like a Unix time in seconds (SOURCES.md marks this as inferred from 5 samples:
 * 23:59:59 China time, 30 days after issue). Unix ms, or undefined when the token says nothing
 * readable (we then treat the address as good for this play only).
 */
export function uptExpiresAt(address: string): number | undefined {
  let upt: string | null;
  try {
    upt = new URL(address).searchParams.get("upt");
  } catch {
    return undefined;
  }
  const seconds = upt ? /(\d{10})$/u.exec(upt)?.[1] : undefined;
  if (!seconds) return undefined;
  // A plausible time only (2020 to 2100): otherwise the guess about the token is wrong.
  const value = Number(seconds);
  if (value < 1_577_836_800 || value > 4_102_444_800) return undefined;
  return value * 1000;
}
