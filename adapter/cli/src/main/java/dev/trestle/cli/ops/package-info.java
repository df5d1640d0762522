/** Operating a running server: {@code /health}, Prometheus {@code /metrics} and the request log. */
package dev.trestle.cli.ops;
