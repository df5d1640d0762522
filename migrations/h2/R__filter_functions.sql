-- Filters compare typed property values in SQL through these deterministic Java functions
-- (dev.trestle.store.internal.h2.H2Functions). Repeatable: re-applied whenever this file changes.
DROP ALIAS IF EXISTS trestle_compare;
CREATE ALIAS trestle_compare DETERMINISTIC FOR 'dev.trestle.store.internal.h2.H2Functions.compare';
DROP ALIAS IF EXISTS trestle_string;
CREATE ALIAS trestle_string DETERMINISTIC FOR 'dev.trestle.store.internal.h2.H2Functions.string';
-- A whole filter over user properties in one call per row (FilterProgram's text as its second argument).
DROP ALIAS IF EXISTS trestle_matches;
CREATE ALIAS trestle_matches DETERMINISTIC FOR 'dev.trestle.store.internal.h2.H2Functions.matches';
