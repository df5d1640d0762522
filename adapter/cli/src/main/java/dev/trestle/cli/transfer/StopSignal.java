package dev.trestle.cli.transfer;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SIGTERM and SIGINT ask a running transfer to stop: it commits what is in flight, writes its
 * checkpoint and exits with {@link dev.trestle.cli.ExitCode#STOPPED}. A second signal ends the
 * process at once (the checkpoint of the last commit stays valid).
 */
public final class StopSignal {
  private final AtomicBoolean requested = new AtomicBoolean();

  public boolean requested() {
    return requested.get();
  }

  public void request() {
    requested.set(true);
  }

  /** Catches SIGTERM and SIGINT for this process, where the JVM lets it. */
  public static StopSignal install() {
    StopSignal stop = new StopSignal();
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        sun.misc.Signal.handle(
            new sun.misc.Signal(name),
            signal -> {
              if (stop.requested.getAndSet(true)) {
                Runtime.getRuntime().halt(128 + signal.getNumber());
              }
            });
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // signal not available here (e.g. already used by the JVM): the default action stays
      }
    }
    return stop;
  }
}
