CREATE TABLE "item_view_deltas" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"views" integer NOT NULL
);
--> statement-breakpoint
DROP TABLE "item_views" CASCADE;--> statement-breakpoint
ALTER TABLE "item_view_deltas" ADD CONSTRAINT "item_view_deltas_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;