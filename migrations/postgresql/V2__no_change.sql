-- Keeps the schema versions of both databases in step: H2's V2 rebuilds its entity table's indexes;
-- PostgreSQL's V1 already has the intended ones.
SELECT 1;
