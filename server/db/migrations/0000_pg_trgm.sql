-- Custom migration: trigram matching for Chinese-aware search. Must come before any
-- gin_trgm_ops index. PGlite loads the extension's code at open (contrib/pg_trgm).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
