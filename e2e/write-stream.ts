import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows } from "../server/db/sql";
import type { DatabaseHandle } from "../server/db/types";

/** One acknowledged write: the API answered code 1, so it must survive anything after. */
export type AckedWrite = { kind: "like" | "favorite"; user: string; item: number } | { kind: "comment"; user: string; item: number; content: string };

/**
 * Members liking, favouriting and commenting through the API as fast as the server answers,
 * until stopped or the server goes away; each write is recorded once acknowledged.
 */
export function startWriteStream(url: string, members: { name: string; token: string }[], itemIds: number[]) {
  const acked: AckedWrite[] = [];
  let inFlight = 0;
  let stopped = false;
  const post = async (path: string, token: string, body: object) => {
    inFlight++;
    try {
      const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return ((await res.json()) as { code: number }).code === 1;
    } finally {
      inFlight--;
    }
  };
  const worker = async (member: { name: string; token: string }, offset: number) => {
    for (let i = 0; !stopped; i++) {
      const item = itemIds[(offset * 53 + i) % itemIds.length]!;
      try {
        if (i % 7 === 3) {
          // At most COMMENTS_PER_MINUTE are accepted; the rest answer code 0 and are not acknowledged.
          const content = `崩溃测试 ${randomUUID()}`;
          if (await post("/api/user/comment", member.token, { id: item, content })) acked.push({ kind: "comment", user: member.name, item, content });
        } else {
          const kind = i % 2 === 0 ? "like" : "favorite";
          if (await post(`/api/user/${kind}`, member.token, { id: item })) acked.push({ kind, user: member.name, item });
        }
      } catch {
        return; // the server is gone
      }
    }
  };
  const done = Promise.all(members.map((m, i) => worker(m, i)));
  return {
    acked,
    inFlight: () => inFlight,
    stop: async () => {
      stopped = true;
      await done;
    },
    done,
  };
}

/** Every acknowledged write is in the database. */
export async function missingWrites(database: DatabaseHandle, acked: AckedWrite[]): Promise<AckedWrite[]> {
  const ids = new Map((await queryRows<{ id: number; username: string }>(database.db, sql`select id, username from users`)).map((u) => [u.username, u.id]));
  const have = async (w: AckedWrite) => {
    const user = ids.get(w.user);
    const [row] =
      w.kind === "comment"
        ? await queryRows(database.db, sql`select 1 from comments where user_id = ${user} and item_id = ${w.item} and content = ${w.content}`)
        : await queryRows(database.db, sql`select 1 from ${sql.identifier(w.kind === "like" ? "likes" : "favorites")} where user_id = ${user} and item_id = ${w.item}`);
    return row !== undefined;
  };
  const missing: AckedWrite[] = [];
  for (const w of acked) if (!(await have(w))) missing.push(w);
  return missing;
}

