/**
 * Trestle's Table REST API server: a {@code TableService} on HTTP (Jetty). Only the API packages
 * are exported; the {@code internal} packages are private API, with no compatibility guarantees.
 */
module dev.trestle.server {
  exports dev.trestle.server;
  exports dev.trestle.server.events;
  exports dev.trestle.server.auth;

  requires transitive dev.trestle; // TrestleServer.builder takes a TableService
  requires transitive org.eclipse.jetty.server; // Builder.wrapHandler wraps a Jetty Handler
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires com.fasterxml.jackson.core;
  requires org.slf4j;
  requires com.nimbusds.jose.jwt; // Bearer tokens: JWS signatures and JWK sets
  requires org.bouncycastle.pkix; // HTTPS: PEM certificates and keys
  requires org.bouncycastle.provider;
  requires java.xml;
}
