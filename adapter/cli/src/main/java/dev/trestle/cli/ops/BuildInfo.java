package dev.trestle.cli.ops;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What is running: Trestle's version and the kind of database under it, for {@code /health} and as
 * {@code trestle_build_info{version,database} 1} in {@code /metrics} (the Prometheus convention for
 * build information, so dashboards can join on it).
 */
public record BuildInfo(String version, String database) {

  public void bindTo(MeterRegistry registry) {
    Gauge.builder("trestle.build.info", () -> 1)
        .description("Trestle's version and database kind; always 1")
        .tag("version", version)
        .tag("database", database)
        .register(registry);
  }
}
