CREATE TABLE "daily_counters" (
	"day" date NOT NULL,
	"name" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_counters_pk" PRIMARY KEY("day","name")
);
--> statement-breakpoint
CREATE INDEX "downloads_created_idx" ON "downloads" USING btree ("created_at");