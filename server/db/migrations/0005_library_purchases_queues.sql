CREATE TABLE "download_purchases" (
	"user_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"coins" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_purchases_pk" PRIMARY KEY("user_id","item_id"),
	CONSTRAINT "download_purchases_coins_check" CHECK ("download_purchases"."coins" > 0)
);
--> statement-breakpoint
CREATE TABLE "player_queues" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"item_ids" integer[] NOT NULL,
	"current_index" integer DEFAULT -1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "player_queues_index_check" CHECK ("player_queues"."current_index" >= -1)
);
--> statement-breakpoint
ALTER TABLE "download_purchases" ADD CONSTRAINT "download_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_purchases" ADD CONSTRAINT "download_purchases_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_queues" ADD CONSTRAINT "player_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_purchases_item_idx" ON "download_purchases" USING btree ("item_id");