/**
 * Connecting to the database at start-up: probing with back-off, classifying failures, building the
 * pool.
 */
package dev.trestle.cli.database;
