-- Every delete of entities deletes their scalar rows (trestle_entity_scalar, V7), whatever deleted them: the
-- Table API, batches, bulk deletes, the expiry sweep, a dropped table's cascade, trestle_delete_entity, and an
-- operator's hand-written DELETE. One set-based delete per statement (a statement trigger over the deleted
-- rows), so a delete keeps its own update count and round trips. Writes of properties set the scalar row
-- themselves, in the same statement (EntityStatements.withScalars), from the document Java computed.
CREATE OR REPLACE FUNCTION trestle_entity_scalar_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trestle_entity_scalar s USING trestle_entity_gone g
  WHERE s.table_id = g.table_id AND s.partition_key = g.partition_key AND s.row_key = g.row_key;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER trestle_entity_scalar_deleted AFTER DELETE ON trestle_entity
REFERENCING OLD TABLE AS trestle_entity_gone FOR EACH STATEMENT EXECUTE FUNCTION trestle_entity_scalar_deleted();

-- A truncate of the entities (by hand: Trestle never truncates) empties the scalar store too, so that no scalar
-- row is ever left without its entity: inserts of new entities insert theirs without a conflict clause.
CREATE OR REPLACE FUNCTION trestle_entity_scalar_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE trestle_entity_scalar;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER trestle_entity_scalar_truncated AFTER TRUNCATE ON trestle_entity
FOR EACH STATEMENT EXECUTE FUNCTION trestle_entity_scalar_truncated();
