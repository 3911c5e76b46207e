import type { FastifyInstance } from "fastify";
import { coinLedger, users } from "../db/schema/index.js";
import { hashPassword } from "../modules/accounts/passwords.js";

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  /** A live member token, as login hands out. */
  token: string;
  /** `{ authorization: "Bearer …" }` for app.inject. */
  headers: { authorization: string };
}

let counter = 0;

/**
 * A member made directly in the database (not through registration, which has its captcha),
 * with a live session token. Options set coins, VIP and status for the library's tests.
 */
export async function createTestUser(
  app: FastifyInstance,
  opts: { username?: string; email?: string; password?: string; coins?: number; vipUntil?: Date | null; status?: 0 | 1; nickname?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const username = opts.username ?? `member${process.pid}x${counter}`;
  const email = opts.email ?? `${username}@example.test`;
  const password = opts.password ?? "secret123";
  const [row] = await app.deps.database.db
    .insert(users)
    .values({
      username,
      email,
      passwordHash: await hashPassword(password),
      nickname: opts.nickname ?? "",
      coins: opts.coins ?? 0,
      vipUntil: opts.vipUntil ?? null,
      status: opts.status ?? 1,
    })
    .returning({ id: users.id });
  // A starting balance has its ledger row, as the migration gives balances from before the ledger.
  if (opts.coins) await app.deps.database.db.insert(coinLedger).values({ userId: row.id, amount: opts.coins, balanceAfter: opts.coins, reason: "opening", note: "期初余额" });
  const token = await app.services.sessions.createUserSession(row.id);
  return { id: row.id, username, email, password, token, headers: { authorization: `Bearer ${token}` } };
}
