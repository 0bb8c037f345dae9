ALTER TABLE "memory_records" ADD COLUMN "embedder" text;--> statement-breakpoint
ALTER TABLE "memory_records" ADD COLUMN "aliases" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_records" ADD COLUMN "document" "tsvector" GENERATED ALWAYS AS (plan_document_tsvector(payload, tags, aliases)) STORED;--> statement-breakpoint
CREATE INDEX "memory_records_document_gin" ON "memory_records" USING gin ("document");--> statement-breakpoint
-- Vectors stored before this column existed were made by the built-in hash embedder, the only one then.
UPDATE "memory_records" SET "embedder" = 'hash' WHERE "embedding" IS NOT NULL;
