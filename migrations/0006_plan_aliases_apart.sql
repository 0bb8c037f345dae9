-- Learned aliases leave the plan document: poured into its name section they gave every word of a
-- learned phrasing a plan's top weight, so a plan that learned "reverse one of the payments" drew
-- every later request about payments. They are matched as whole phrasings instead
-- (src/domain/alias-match.ts), gathered through their own index (plan_aliases_tsvector).
CREATE OR REPLACE FUNCTION plan_document_tsvector(payload jsonb, tags text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN payload->>'kind' <> 'plan_graph' THEN ''::tsvector ELSE
    setweight(to_tsvector('english', plan_document_words(payload->>'intent')), 'A') ||
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plan_aliases_tsvector(aliases text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('english', plan_document_words(array_to_string(aliases, ' ')))
$$;
