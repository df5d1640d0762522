/**
 * The entity JSON format of the Table service, read and written in one place: request and response
 * bodies at the three metadata levels ({@link dev.trestle.json.EntityJson}) and the
 * one-entity-per-line export form ({@link dev.trestle.json.EntityLines}).
 */
package dev.trestle.json;
