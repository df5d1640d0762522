/**
 * {@code $batch}: multipart framing, change sets run as one transaction, batch responses. Private
 * API. No compatibility guarantees.
 */
package dev.trestle.server.internal.batch;
