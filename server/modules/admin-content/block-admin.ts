import type { BlockInput, BlockItemInput, BlockItemPatchInput, BlockItemRow, BlockPatchInput, BlockRow, SortMove } from "@contracts/admin-content";
import { blockTexts as t } from "@contracts/admin-content-texts";
import type { AdminTableQuery } from "@contracts/admin-table";
import type { AppDatabase, DbLogger } from "../../db/types.js";
import { badRequest, notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { type ImageBox, imageStore } from "../../lib/image-upload.js";
import { adminContentRepo } from "./repo.js";
import { moveTo, sortChange } from "./sort-order.js";
import { blockTable } from "./tables.js";

/** What a picture becomes per position: carousel slides are cropped to 3:1, logos keep their shape. */
export const BLOCK_IMAGE_BOXES: Record<string, ImageBox> = {
  indexfocus: { width: 1200, height: 400, fit: "cover" },
  indexweb: { width: 300, height: 100, fit: "inside" },
};
const ANY_BOX: ImageBox = { width: 1600, height: 1600, fit: "inside" };

/**
 * The back office's blocks (issue 12): the home carousel (indexfocus) and partner logos
 * (indexweb) with their items. Every write goes through the write service (the home page drops
 * its kept answer on the `blocks` event) with its audit record in the same transaction.
 */
export function blockAdminService(
  db: AppDatabase,
  { writes, audit, uploadsDir, logger }: { writes: CatalogueWriteService; audit: AuditService; uploadsDir: string; logger: Pick<DbLogger, "warn"> },
) {
  const reads = adminContentRepo(db);
  const images = imageStore(uploadsDir, "blocks");
  /** A file no row points at any more; failing to remove it never fails the change. */
  const dropImages = async (urls: (string | undefined)[]) => {
    for (const url of urls) await images.remove(url).catch((err) => logger.warn({ err, url }, "block image not removed"));
  };

  return {
    table: (query: AdminTableQuery) => reads.blockTable(blockTable(query)),

    async items(blockId: number): Promise<BlockItemRow[]> {
      if (!(await reads.block(blockId))) throw notFound(t.missing);
      return reads.blockItems(blockId);
    },

    /** Decodes and re-encodes the picture for the block's position; answers its address. */
    uploadImage: (bytes: Buffer, position: string | undefined) =>
      images.save(bytes, (position && BLOCK_IMAGE_BOXES[position]) || ANY_BOX, t.imageNotImage),

    async create(actor: AuditActor, input: BlockInput): Promise<BlockRow> {
      return writes.transaction(async (w, tx) => {
        const id = await w.createBlock({ name: input.name, position: input.position, status: input.status, sort: input.sort });
        const after = (await adminContentRepo(tx).block(id))!;
        await audit.record(actor, { action: "block.create", targetType: "block", targetId: id, after }, tx);
        return after;
      });
    },

    /** Drag-to-sort among the blocks of one position (the home page shows each position in its order); audited. */
    async move(actor: AuditActor, { id, to }: SortMove): Promise<void> {
      await writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        const [moved, target] = [await repo.block(id), await repo.block(to)];
        if (!moved || !target) throw notFound(t.missing);
        if (moved.position !== target.position) throw badRequest(t.sortOtherPosition);
        const order = await repo.blocksInOrder(moved.position);
        const changes = moveTo(order, id, to);
        for (const change of changes) await w.updateBlock(change.id, { sort: change.sort });
        await audit.record(actor, { action: "block.sort", targetType: "block", targetId: id, ...sortChange(order, changes), detail: { to } }, tx);
      });
    },

    async update(actor: AuditActor, id: number, input: BlockPatchInput): Promise<BlockRow> {
      return writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        const before = await repo.block(id, true);
        if (!before) throw notFound(t.missing);
        await w.updateBlock(id, input);
        const after = (await repo.block(id))!;
        await audit.record(actor, { action: "block.update", targetType: "block", targetId: id, before, after }, tx);
        return after;
      });
    },

    /** The block and its items (the items' pictures too). */
    async delete(actor: AuditActor, id: number): Promise<void> {
      const removed = await writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        const before = await repo.block(id, true);
        if (!before) throw notFound(t.missing);
        const items = await repo.blockItems(id);
        await w.deleteBlock(id);
        await audit.record(actor, { action: "block.delete", targetType: "block", targetId: id, before: { ...before, itemRows: items } }, tx);
        return items;
      });
      await dropImages(removed.map((i) => i.image));
    },

    async createItem(actor: AuditActor, blockId: number, input: BlockItemInput): Promise<BlockItemRow> {
      return writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        if (!(await repo.block(blockId, true))) throw notFound(t.missing);
        const [id] = await w.createBlockItems([{ blockId, name: input.name, url: input.url, image: input.image, sort: input.sort }]);
        const after = (await repo.blockItem(id!))!;
        await audit.record(actor, { action: "block_item.create", targetType: "block_item", targetId: id, after, detail: { blockId } }, tx);
        return after;
      });
    },

    async updateItem(actor: AuditActor, id: number, input: BlockItemPatchInput): Promise<BlockItemRow> {
      const { before, after } = await writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        const before = await repo.blockItem(id, true);
        if (!before) throw notFound(t.itemMissing);
        await w.updateBlockItem(id, input);
        const after = (await repo.blockItem(id))!;
        await audit.record(actor, { action: "block_item.update", targetType: "block_item", targetId: id, before, after, detail: { blockId: before.block_id } }, tx);
        return { before, after };
      });
      if (before.image !== after.image) await dropImages([before.image]);
      return after;
    },

    async deleteItem(actor: AuditActor, id: number): Promise<void> {
      const before = await writes.transaction(async (w, tx) => {
        const before = await adminContentRepo(tx).blockItem(id, true);
        if (!before) throw notFound(t.itemMissing);
        await w.deleteBlockItem(id);
        await audit.record(actor, { action: "block_item.delete", targetType: "block_item", targetId: id, before, detail: { blockId: before.block_id } }, tx);
        return before;
      });
      await dropImages([before.image]);
    },
  };
}

export type BlockAdminService = ReturnType<typeof blockAdminService>;
