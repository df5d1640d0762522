/**
 * JUnit 5 support shared by every module's tests (published in core's test-jar): {@link
 * DatabaseTest} runs a test once on H2 and once on PostgreSQL, each time with a fresh account so
 * tests never see each other's data; {@link TableAssertions} says "fails with Azure code X".
 */
package dev.trestle.testing;
