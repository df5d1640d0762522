/** Routing, OData JSON, $batch multipart and error mapping of the server. Private API. No compatibility guarantees. */
package dev.trestle.server.internal;
