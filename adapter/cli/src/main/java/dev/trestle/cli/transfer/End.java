package dev.trestle.cli.transfer;

/** Something a transfer can read from and write to alike, so verify can read a copy's target. */
public interface End extends Source, Sink {
  @Override
  default void close() {}
}
