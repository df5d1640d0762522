/**
 * The Table API handler: one Jetty request resolved, authenticated and dispatched to its endpoint,
 * every failure mapped to the service's error response. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal;
