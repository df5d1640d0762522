/**
 * CORS rules of the Table service: preflight answers and the headers added to actual responses.
 * Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.cors;
