ALTER TABLE "items" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "deleted_status" text;--> statement-breakpoint
CREATE INDEX "items_deleted_idx" ON "items" USING btree ("deleted_at") WHERE "items"."deleted_at" is not null;