/**
 * OData JSON response bodies at the three metadata levels. Private API. No compatibility
 * guarantees.
 */
package dev.trestle.server.internal.json;
