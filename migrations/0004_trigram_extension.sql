-- Trigram indexes (next migration) serve the substring searches on report title and description
-- (ILIKE '%…%'), which a B-tree cannot. pg_trgm is a trusted extension since PostgreSQL 13.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
