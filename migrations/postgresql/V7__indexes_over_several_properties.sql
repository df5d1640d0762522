-- A declared index may run over several properties in order (TableService.createIndex with a list, trestle index
-- create with --property repeated): the row names its first property and kind as before, and the further ones in
-- then_properties as 'Name:kind:Edm.Type' separated by ';' (empty for an index over one property). A table still
-- has at most one index led by a given property and kind, so the primary key stands.
ALTER TABLE trestle_property_index ADD COLUMN then_properties TEXT COLLATE "C" NOT NULL DEFAULT '';
COMMENT ON COLUMN trestle_property_index.then_properties IS 'The further properties of an index over several, in order, as Name:kind:Edm.Type separated by ";"; empty for an index over one property.';
COMMENT ON COLUMN trestle_property_index.property IS 'The property name (the first of an index over several).';
