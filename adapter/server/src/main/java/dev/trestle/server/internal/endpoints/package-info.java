/**
 * The operations: tables, entities, service properties, stats and ACLs, each authorized against the
 * grant. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.endpoints;
