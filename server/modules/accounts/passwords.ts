import { hash, verify } from "@node-rs/argon2";

/**
 * Passwords are argon2id (OWASP's minimum: 19 MiB, 2 passes). @node-rs/argon2's async calls
 * run on libuv's thread pool, so hashing never blocks the event loop that serves pages.
 */
const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/** False for a wrong password and for a stored hash that is not argon2 at all. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
