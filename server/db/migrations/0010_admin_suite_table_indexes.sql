CREATE INDEX "items_kind_id_idx" ON "items" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "items_kind_category_id_idx" ON "items" USING btree ("kind","category_id","id");