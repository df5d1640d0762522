package dev.trestle.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until a test moves it on: expiry without sleeping. */
public final class FakeClock extends Clock {
  private volatile Instant now;

  public FakeClock(Instant start) {
    this.now = start;
  }

  public FakeClock() {
    this(Instant.parse("2030-01-01T00:00:00Z"));
  }

  public void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
