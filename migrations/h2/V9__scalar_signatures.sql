-- Keeps the schema versions of both databases in step: PostgreSQL's V9 adds signatures to its scalar store,
-- which H2 has not.
SELECT 1;
