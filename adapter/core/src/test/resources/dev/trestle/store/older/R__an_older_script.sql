-- A repeatable script of an older Trestle's, for SchemaMigratorTest: the table says it ran.
CREATE TABLE older_script_ran (n INT);
