/**
 * Operating a running server: {@code /health}, Prometheus {@code /metrics} (on the API port or an
 * operations port of their own) and the request log.
 */
package dev.trestle.cli.ops;
