import type { AdminTableQuery } from "@contracts/admin-table";
import { COMMENT_STATUS_TEXT } from "@contracts/admin-people";
import type { AppDatabase } from "../../db/types.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { adminCommentRepo, type CommentTableRow } from "./repo.js";
import { commentTable } from "./table.js";

export interface AdminCommentServiceOptions {
  writes: Pick<CatalogueWriteService, "transaction">;
  audit: AuditService;
}

const view = (c: { id: number; item_id: number; user_id: number; status: string; content: string }) => ({
  itemId: c.item_id,
  userId: c.user_id,
  status: c.status,
  content: c.content,
});

/**
 * The back office's comments (issue 12): newest first, hide, show again, delete. The item's
 * comment counter counts visible comments and moves in the same transaction through the write
 * service (so cached pages hear of it), as a member's own post and delete do; one audit row
 * per comment.
 */
export function adminCommentService(db: AppDatabase, { writes, audit }: AdminCommentServiceOptions) {
  return {
    async table(query: AdminTableQuery): Promise<{ total: number; rows: (CommentTableRow & { status_text: string })[] }> {
      const { total, rows } = await adminCommentRepo(db).table(commentTable(query));
      return { total, rows: rows.map((r) => ({ ...r, status_text: COMMENT_STATUS_TEXT[r.status] ?? r.status })) };
    },

    /** Hides (or shows again) the comments; those already so are left alone. Answers the ids changed. */
    async setHidden(actor: AuditActor, ids: readonly number[], hidden: boolean): Promise<number[]> {
      const target = hidden ? "hidden" : "normal";
      return writes.transaction(async (w, tx) => {
        const repo = adminCommentRepo(tx);
        const changing = (await repo.lock([...new Set(ids)])).filter((c) => c.status !== target);
        await repo.setStatus(changing.map((c) => c.id), target);
        for (const c of changing) {
          await w.addToItemCounts(c.item_id, { comments: hidden ? -1 : 1 });
          await audit.record(actor, { action: hidden ? "comment.hide" : "comment.show", targetType: "comment", targetId: c.id, before: view(c), after: view({ ...c, status: target }) }, tx as unknown as AppDatabase);
        }
        return changing.map((c) => c.id);
      });
    },

    /** Deletes the comments with their replies. Answers the ids that existed. */
    async delete(actor: AuditActor, ids: readonly number[]): Promise<number[]> {
      return writes.transaction(async (w, tx) => {
        const repo = adminCommentRepo(tx);
        const found = await repo.lock([...new Set(ids)]);
        const gone = await repo.deleteWithReplies(found.map((c) => c.id));
        for (const [itemId, n] of gone) await w.addToItemCounts(itemId, { comments: -n });
        for (const c of found) {
          await audit.record(actor, { action: "comment.delete", targetType: "comment", targetId: c.id, before: view(c), after: null }, tx as unknown as AppDatabase);
        }
        return found.map((c) => c.id);
      });
    },
  };
}

export type AdminCommentService = ReturnType<typeof adminCommentService>;
