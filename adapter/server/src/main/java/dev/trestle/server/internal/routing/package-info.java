/**
 * What a request addresses: the account from the host name or the path (host-style and path-style
 * URLs), the route below it, the secondary endpoint, the call with its effective verb. Private API.
 * No compatibility guarantees.
 */
package dev.trestle.server.internal.routing;
