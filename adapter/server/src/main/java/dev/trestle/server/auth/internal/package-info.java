/** Private API. No compatibility guarantees: signature computation and SAS checks behind {@code RequestAuthenticator}. */
package dev.trestle.server.auth.internal;
