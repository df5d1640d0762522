/**
 * Request authentication (Shared Key, Shared Key Lite, account and table SAS) and what a credential
 * may do. Private API. No compatibility guarantees.
 */
package dev.trestle.server.auth.internal;
