/**
 * HTTPS: the server's certificate and key read from PEM or PKCS#12 files and checked, and Jetty's
 * TLS layer over them. Private API. No compatibility guarantees.
 */
package dev.trestle.server.internal.tls;
