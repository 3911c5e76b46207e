import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `bytes` cryptographically random bytes as base64url, drawn from a pool filled 4 KB at a time:
 * a visitor id and a CSP nonce are made for many requests, and a call into the system's random
 * source for each cost ~4% of serving a page's data. (Node's randomUUID pools the same way.)
 */
export function randomToken(bytes = 16): string {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes)).toString("base64url");
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const token = pool.toString("base64url", used, used + bytes);
  // Zeroed so that a token is never handed out twice, even by a mistake in the bookkeeping.
  pool.fill(0, used, used + bytes);
  used += bytes;
  return token;
}
