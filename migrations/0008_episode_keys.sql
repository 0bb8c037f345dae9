CREATE TABLE "episode_keys" (
	"principal" text NOT NULL,
	"key" text NOT NULL,
	"request_sha256" text NOT NULL,
	"record_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "episode_keys_principal_key_pk" PRIMARY KEY("principal","key")
);
--> statement-breakpoint
ALTER TABLE "episode_keys" ADD CONSTRAINT "episode_keys_record_id_memory_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."memory_records"("id") ON DELETE cascade ON UPDATE no action;