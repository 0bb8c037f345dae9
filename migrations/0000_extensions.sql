-- pgvector stores and indexes embeddings; pgcrypto provides gen_random_uuid on older servers.
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pgcrypto;
