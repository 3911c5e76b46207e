CREATE TABLE "item_plays" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"site" text NOT NULL,
	"kind" text NOT NULL,
	"day" integer DEFAULT 0 NOT NULL,
	"week" integer DEFAULT 0 NOT NULL,
	"month" integer DEFAULT 0 NOT NULL,
	"quarter" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "items_category_latest_idx";--> statement-breakpoint
ALTER TABLE "item_plays" ADD CONSTRAINT "item_plays_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_plays_day_idx" ON "item_plays" USING btree ("site","kind","day" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_plays_week_idx" ON "item_plays" USING btree ("site","kind","week" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_plays_month_idx" ON "item_plays" USING btree ("site","kind","month" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_plays_quarter_idx" ON "item_plays" USING btree ("site","kind","quarter" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "items_category_hot_idx" ON "items" USING btree ("category_id","view_count","id") WHERE "items"."status" = 'normal';--> statement-breakpoint
CREATE INDEX "items_category_latest_idx" ON "items" USING btree ("category_id","published_at","id") WHERE "items"."status" = 'normal';