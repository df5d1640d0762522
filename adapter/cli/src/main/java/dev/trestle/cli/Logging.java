package dev.trestle.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import dev.trestle.cli.config.ServerSettings.LogFormat;
import dev.trestle.cli.ops.JsonLogEncoder;
import java.util.Iterator;
import org.slf4j.LoggerFactory;

/** Applies the resolved {@code log-level} and {@code log-format} settings at run time. */
final class Logging {
  private Logging() {}

  static void setTrestleLevel(String level) {
    if (LoggerFactory.getLogger("dev.trestle") instanceof Logger logback) {
      logback.setLevel(Level.toLevel(level, Level.INFO));
    }
  }

  /** With JSON, every appender of the root logger writes one JSON object a line from now on. */
  static void setFormat(LogFormat format) {
    if (format != LogFormat.JSON
        || !(LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root)) {
      return;
    }
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
        JsonLogEncoder encoder = new JsonLogEncoder();
        encoder.setContext(appender.getContext());
        encoder.start();
        appender.setEncoder(encoder);
      }
    }
  }
}
