package dev.trestle.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Applies the resolved {@code log-level} setting to Trestle's loggers at run time. */
final class Logging {
  private Logging() {}

  static void setTrestleLevel(String level) {
    if (LoggerFactory.getLogger("dev.trestle") instanceof Logger logback) {
      logback.setLevel(Level.toLevel(level, Level.INFO));
    }
  }
}
