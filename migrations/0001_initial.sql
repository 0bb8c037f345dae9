CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_hash" text NOT NULL,
	"principal" text NOT NULL,
	"max_sensitivity" text NOT NULL,
	"scopes" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"record_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"revision" integer NOT NULL,
	"details" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consolidated_sources" (
	"episode_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consolidated_sources_episode_id_kind_pk" PRIMARY KEY("episode_id","kind")
);
--> statement-breakpoint
CREATE TABLE "consolidation_passes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"run_id" text NOT NULL,
	"scanned" integer NOT NULL,
	"eligible" integer NOT NULL,
	"created" integer NOT NULL,
	"skipped" integer NOT NULL,
	"competences_created" integer DEFAULT 0 NOT NULL,
	"competences_reinforced" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consolidation_passes_run_id_unique" UNIQUE("run_id")
);
--> statement-breakpoint
CREATE TABLE "memory_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"sensitivity" text NOT NULL,
	"sensitivity_rank" smallint NOT NULL,
	"confidence" double precision NOT NULL,
	"salience" double precision DEFAULT 0 NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"payload" jsonb NOT NULL,
	"label" text,
	"structure_key" text,
	"embedding" vector(256),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_reinforced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_relations" (
	"source_id" uuid NOT NULL,
	"predicate" text NOT NULL,
	"target_id" uuid NOT NULL,
	"weight" double precision DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_relations_source_id_predicate_target_id_pk" PRIMARY KEY("source_id","predicate","target_id")
);
--> statement-breakpoint
CREATE TABLE "plan_runs" (
	"workflow_id" text NOT NULL,
	"run_id" text NOT NULL,
	"plan_id" uuid NOT NULL,
	"plan_revision" integer NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"latency_ms" double precision,
	"error" jsonb,
	CONSTRAINT "plan_runs_workflow_id_run_id_pk" PRIMARY KEY("workflow_id","run_id")
);
--> statement-breakpoint
CREATE TABLE "plan_stats" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"successes" bigint DEFAULT 0 NOT NULL,
	"failures" bigint DEFAULT 0 NOT NULL,
	"latency_sum_ms" double precision DEFAULT 0 NOT NULL,
	"latency_samples" bigint DEFAULT 0 NOT NULL,
	"last_executed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "consolidated_sources" ADD CONSTRAINT "consolidated_sources_episode_id_memory_records_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."memory_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consolidated_sources" ADD CONSTRAINT "consolidated_sources_record_id_memory_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."memory_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_relations" ADD CONSTRAINT "memory_relations_source_id_memory_records_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."memory_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_stats" ADD CONSTRAINT "plan_stats_plan_id_memory_records_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."memory_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_record_idx" ON "audit_log" USING btree ("record_id","id");--> statement-breakpoint
CREATE INDEX "consolidated_sources_record_idx" ON "consolidated_sources" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "memory_records_type_status_idx" ON "memory_records" USING btree ("type","status","sensitivity_rank");--> statement-breakpoint
CREATE INDEX "memory_records_created_idx" ON "memory_records" USING btree ("type","created_at","id");--> statement-breakpoint
CREATE INDEX "memory_records_label_idx" ON "memory_records" USING btree ("type","label");--> statement-breakpoint
CREATE UNIQUE INDEX "memory_records_active_structure_uq" ON "memory_records" USING btree ("structure_key") WHERE type = 'plan_graph' AND status = 'active' AND structure_key IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "memory_records_skill_uq" ON "memory_records" USING btree ("label") WHERE type = 'competence';--> statement-breakpoint
CREATE INDEX "memory_records_embedding_hnsw" ON "memory_records" USING hnsw ("embedding" vector_cosine_ops);--> statement-breakpoint
CREATE INDEX "memory_relations_target_idx" ON "memory_relations" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "plan_runs_plan_idx" ON "plan_runs" USING btree ("plan_id","started_at");--> statement-breakpoint
CREATE INDEX "plan_runs_open_idx" ON "plan_runs" USING btree ("started_at") WHERE finished_at IS NULL;