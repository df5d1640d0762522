/**
 * Entities written as JSON from their stored form, without decoding them into values: the seam
 * between the store's query pages and the server's responses. Private API, exported only to {@code
 * dev.trestle.server}.
 */
package dev.trestle.json.internal;
