package dev.trestle.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.trestle.cli.config.ServerSettings.LogFormat;
import dev.trestle.cli.ops.JsonLogEncoder;
import dev.trestle.cli.ops.RequestLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Applies the resolved {@code log-level}, {@code log-format}, {@code access-log} and {@code
 * log-file} settings at run time.
 */
final class Logging {
  private Logging() {}

  static void setTrestleLevel(String level) {
    if (LoggerFactory.getLogger("dev.trestle") instanceof Logger logback) {
      logback.setLevel(Level.toLevel(level, Level.INFO));
    }
  }

  /** Switches the access log (logger {@code dev.trestle.requests}) on or off. */
  static void setAccessLog(boolean on) {
    if (LoggerFactory.getLogger(RequestLog.LOGGER) instanceof Logger logback) {
      logback.setLevel(on ? null : Level.WARN);
    }
  }

  /**
   * Writes the log to {@code file} too (appended, its folder created), in the console's format.
   *
   * @param consoleLevel the level the console keeps while the file takes everything, e.g. {@code
   *     info} under Azurite's {@code --debug FILE}; null leaves the console as it is
   */
  static void addFile(Path file, String consoleLevel) {
    if (!(LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root)) {
      return;
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new CliException(
          ExitCode.USAGE, "--log-file: cannot create the folder of '" + file + "': " + e + ".");
    }
    List<OutputStreamAppender<ILoggingEvent>> consoles = new ArrayList<>();
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
        consoles.add(appender);
      }
    }
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(root.getLoggerContext());
    appender.setName("FILE");
    appender.setFile(file.toString());
    appender.setAppend(true);
    if (!consoles.isEmpty()
        && consoles.getFirst().getEncoder() instanceof Encoder<ILoggingEvent> e
        && e instanceof JsonLogEncoder) {
      JsonLogEncoder json = new JsonLogEncoder();
      json.setContext(root.getLoggerContext());
      json.start();
      appender.setEncoder(json);
    } else {
      PatternLayoutEncoder pattern = new PatternLayoutEncoder();
      pattern.setContext(root.getLoggerContext());
      pattern.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger{0} - %msg%n%ex");
      pattern.start();
      appender.setEncoder(pattern);
    }
    appender.start();
    if (!appender.isStarted()) {
      throw new CliException(ExitCode.USAGE, "--log-file: cannot write to '" + file + "'.");
    }
    if (consoleLevel != null) {
      for (OutputStreamAppender<ILoggingEvent> console : consoles) {
        ThresholdFilter threshold = new ThresholdFilter();
        threshold.setLevel(consoleLevel);
        threshold.start();
        console.addFilter(threshold);
      }
    }
    root.addAppender(appender);
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
