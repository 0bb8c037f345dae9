ALTER TABLE "memory_records" drop column "document";--> statement-breakpoint
ALTER TABLE "memory_records" ADD COLUMN "document" "tsvector" GENERATED ALWAYS AS (plan_document_tsvector(payload, tags)) STORED;--> statement-breakpoint
ALTER TABLE "memory_records" ADD COLUMN "aliases_document" "tsvector" GENERATED ALWAYS AS (plan_aliases_tsvector(aliases)) STORED;--> statement-breakpoint
CREATE INDEX "memory_records_aliases_document_gin" ON "memory_records" USING gin ("aliases_document");--> statement-breakpoint
-- Dropping the column dropped its index.
CREATE INDEX "memory_records_document_gin" ON "memory_records" USING gin ("document");--> statement-breakpoint
DROP FUNCTION plan_document_tsvector(jsonb, text[], text[]);
