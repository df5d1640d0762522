/**
 * Signing requests with an account key the way Azure's Shared Key scheme does: {@link
 * dev.trestle.server.auth.SharedKeySigner}.
 */
package dev.trestle.server.auth;
