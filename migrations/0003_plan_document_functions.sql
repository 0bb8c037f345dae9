-- The lexical half of a plan's document (src/domain/plan-document.ts builds the same sections for
-- the dense embedding). IMMUTABLE so the memory_records.document column can be generated from it,
-- which keeps the index right for every writer, whichever code path inserts or updates a plan.
CREATE OR REPLACE FUNCTION plan_document_words(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT btrim(regexp_replace(
           regexp_replace(regexp_replace(t, '\{\{[^{}]*\}\}', ' ', 'g'), '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
           '[^[:alnum:]]+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plan_document_tsvector(payload jsonb, tags text[], aliases text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN payload->>'kind' <> 'plan_graph' THEN ''::tsvector ELSE
    setweight(to_tsvector('english', plan_document_words(concat_ws(' ', payload->>'intent', array_to_string(aliases, ' ')))), 'A') ||
    setweight(to_tsvector('english', plan_document_words(concat_ws(' ',
      payload->>'description',
      (SELECT string_agg(e, ' ') FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(payload->'examples') = 'array' THEN payload->'examples' ELSE '[]' END) e),
      array_to_string(tags, ' ')))), 'B') ||
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
