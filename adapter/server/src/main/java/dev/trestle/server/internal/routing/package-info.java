/**
 * What a request addresses: path-style URLs parsed into routes, the secondary endpoint, the call
 * with its effective verb. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.routing;
