/** Request authentication (Shared Key, Shared Key Lite, account and table SAS) and what a credential may do. */
package dev.trestle.server.auth;
