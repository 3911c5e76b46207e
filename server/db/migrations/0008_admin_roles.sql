ALTER TABLE "admins" ADD COLUMN "role" text DEFAULT 'editor' NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_role_check" CHECK ("admins"."role" in ('super', 'editor'));--> statement-breakpoint
-- Admins from before roles ran everything: they stay 超级管理员. New admins are 编辑 unless made super.
UPDATE "admins" SET "role" = 'super';
