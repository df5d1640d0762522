-- What a later Trestle's migration would be, for DatabaseCommandsTest: it changes nothing.
SELECT 1;
