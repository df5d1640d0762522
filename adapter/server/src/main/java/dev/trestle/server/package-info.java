/**
 * The Table REST API server: {@link dev.trestle.server.TrestleServer} puts a TableService on HTTP.
 */
package dev.trestle.server;
