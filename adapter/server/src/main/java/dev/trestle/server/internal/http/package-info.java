/**
 * HTTP plumbing under the Table API: Jetty handlers and connections, bodies, percent-encoding,
 * responses and error bodies, request events. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.http;
