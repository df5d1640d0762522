/**
 * The jOOQ implementation of the Table API on H2 and PostgreSQL. Private API. No compatibility guarantees.
 */
package dev.trestle.store.internal;
