-- Keeps the schema versions of both databases in step: PostgreSQL's V7 adds the scalar store
-- (trestle_entity_scalar); H2 evaluates filters as Java functions over the entity row and has none.
SELECT 1;
