CREATE TABLE "source_canaries" (
	"source" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"last_ok_at" timestamp with time zone,
	"failing_step" text,
	"checks" jsonb NOT NULL
);
