/**
 * The XML documents of the Table service: stored access policies, service properties and stats,
 * parsed safely. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.xml;
