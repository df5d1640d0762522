-- A declared index may run over several properties in order (see the PostgreSQL migration of the same version);
-- H2 keeps the declaration and builds no index, as for an index over one property.
ALTER TABLE trestle_property_index ADD COLUMN then_properties VARCHAR NOT NULL DEFAULT '';
COMMENT ON COLUMN trestle_property_index.then_properties IS 'The further properties of an index over several, in order, as Name:kind:Edm.Type separated by ";"; empty for an index over one property.';
COMMENT ON COLUMN trestle_property_index.property IS 'The property name (the first of an index over several).';
