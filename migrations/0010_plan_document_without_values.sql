-- The values a plan's inputs take leave its description and examples in the plan document: they
-- say which customer or service a learned task was for, not what the plan does, and left in they
-- drew a task about the same customer to another job. src/domain/plan-document.ts
-- (inputValueWords) leaves out the same words for the dense side.
CREATE OR REPLACE FUNCTION plan_input_value_pattern(payload jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '\m(' || string_agg(DISTINCT word, '|') || ')\M'
    FROM (
      SELECT regexp_split_to_table(lower(words), ' ') AS word, words
        FROM (
          SELECT plan_document_words(v #>> '{}') AS words
            FROM jsonb_path_query(payload, 'lax $.inputs_schema.properties.*.examples[*] ? (@.type() == "string" || @.type() == "number")') v
        ) value_words
       WHERE array_length(regexp_split_to_array(words, ' '), 1) <= 3
    ) w
   WHERE word <> ''
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plan_document_tsvector(payload jsonb, tags text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN payload->>'kind' <> 'plan_graph' THEN ''::tsvector ELSE
    setweight(to_tsvector('english', plan_document_words(payload->>'intent')), 'A') ||
    setweight(to_tsvector('english', concat_ws(' ',
      (SELECT CASE WHEN pattern IS NULL THEN told ELSE regexp_replace(told, pattern, ' ', 'gi') END
         FROM (SELECT plan_document_words(concat_ws(' ',
                 payload->>'description',
                 (SELECT string_agg(e, ' ') FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(payload->'examples') = 'array' THEN payload->'examples' ELSE '[]' END) e))) AS told,
                 plan_input_value_pattern(payload) AS pattern) about),
      plan_document_words(array_to_string(tags, ' ')))), 'B') ||
    setweight(to_tsvector('english', plan_document_words(concat_ws(' ',
      (SELECT string_agg(n->>'op', ' ') FROM jsonb_array_elements(payload->'nodes') n),
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'lax $.inputs_schema.properties.keyvalue().key') w),
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'lax $.inputs_schema.**.description ? (@.type() == "string")') w),
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'lax $.outputs_schema.properties.keyvalue().key') w),
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'lax $.outputs_schema.**.description ? (@.type() == "string")') w)))), 'C') ||
    setweight(to_tsvector('english', plan_document_words(concat_ws(' ',
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'strict $.nodes[*].params.** ? (@.type() == "object").keyvalue().key') w),
      (SELECT string_agg(w #>> '{}', ' ') FROM jsonb_path_query(payload, 'strict $.nodes[*].params.** ? (@.type() == "string")') w)))), 'D')
  END
$$;
--> statement-breakpoint
-- A stored generated column is not recomputed when its function changes: made again, it is.
ALTER TABLE "memory_records" DROP COLUMN "document";--> statement-breakpoint
ALTER TABLE "memory_records" ADD COLUMN "document" "tsvector" GENERATED ALWAYS AS (plan_document_tsvector(payload, tags)) STORED;--> statement-breakpoint
CREATE INDEX "memory_records_document_gin" ON "memory_records" USING gin ("document");
