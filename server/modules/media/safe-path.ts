/**
 * Maps the still-percent-encoded path of a request below a served root to a real file inside
 * that root, or says why not. Every segment is decoded on its own, so an encoded "/" or "\"
 * cannot join segments, and the final realpath check stops symlinks that lead outside.
 */
import { realpath } from "node:fs/promises";
import { join, sep } from "node:path";

export type Resolved = { ok: true; file: string } | { ok: false; status: 400 | 403 | 404 };

const MAX_PATH = 1024;

export async function resolveInside(rootReal: string, encodedPath: string): Promise<Resolved> {
  if (encodedPath.length === 0 || encodedPath.length > MAX_PATH) return { ok: false, status: 404 };
  const segments: string[] = [];
  for (const raw of encodedPath.split("/")) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400 };
    }
    if (seg === "." || seg === ".." || /[/\\\0]/.test(seg)) return { ok: false, status: 403 };
    // Empty segments (//, a trailing /) and dotfiles are never served.
    if (seg === "" || seg.startsWith(".")) return { ok: false, status: 404 };
    segments.push(seg);
  }
  let real: string;
  try {
    real = await realpath(join(rootReal, ...segments));
  } catch (err) {
    return { ok: false, status: (err as NodeJS.ErrnoException).code === "EACCES" ? 403 : 404 };
  }
  const prefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
  if (!real.startsWith(prefix)) return { ok: false, status: 403 };
  return { ok: true, file: real };
}
