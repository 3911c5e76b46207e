import type { AuditAction } from "@contracts/audit-labels";
import type { FastifyRequest } from "fastify";
import { auditLog } from "../../db/schema/index.js";
import type { AppDatabase } from "../../db/types.js";

/**
 * The audit trail of the back office (issue 12): every admin change writes who, what, when,
 * from where, and the record before and after. Write it in the same transaction as the change
 * (`tx`), so a change without its audit row cannot exist.
 */

/** Who made a change: the signed-in admin and the address they came from. */
export interface AuditActor {
  adminId: number;
  ip: string;
}

export interface AuditEntry {
  /** `{target}.{verb}`, e.g. `suite.create`: one of the labelled codes (contracts/audit-labels.ts). */
  action: AuditAction;
  targetType: string;
  targetId?: string | number | null;
  /** The record before and after (null when created / deleted); plain JSON. */
  before?: unknown;
  after?: unknown;
  /** Anything else worth keeping (a batch's ids, a job's source…). */
  detail?: Record<string, unknown>;
}

/** The actor of an admin route (`access: "admin" | "super"`: `request.admin` is resolved). */
export function auditActor(request: FastifyRequest): AuditActor {
  return { adminId: request.admin!.id, ip: request.ip };
}

/** The site itself as the one who made a change (a plugin switched off for misbehaving). */
export const SITE_ACTOR = { adminId: null, ip: "" } as const;

export function auditService(db: AppDatabase) {
  return {
    async record(actor: AuditActor | typeof SITE_ACTOR, entry: AuditEntry, tx: AppDatabase = db): Promise<void> {
      await tx.insert(auditLog).values({
        adminId: actor.adminId,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
        detail: { before: entry.before ?? null, after: entry.after ?? null, ...entry.detail },
        ip: actor.ip || null,
      });
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
