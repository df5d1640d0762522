package dev.trestle.cli;

/** A failure the CLI reports as one line on stderr, with the exit code that classifies it. */
public class CliException extends RuntimeException {
  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  /** {@code message} ended by one full stop, whether or not it had one. */
  public static String sentence(String message) {
    return message.endsWith(".") ? message : message + ".";
  }

  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
