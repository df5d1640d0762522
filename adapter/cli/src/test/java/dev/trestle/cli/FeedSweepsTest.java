package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The schedule of serve's change-feed sweep, from its flags, variables and defaults. */
class FeedSweepsTest {

  private static FeedSweeps.Schedule schedule(Map<String, String> environment, List<String> args) {
    CommandLine commandLine =
        Trestle.commandLine(
            environment, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    CommandLine.ParseResult result = commandLine.parseArgs(args.toArray(String[]::new));
    return ((ServeCommand) result.subcommand().commandSpec().userObject()).feedSweep();
  }

  @Test
  void sweepsEveryMinuteTenThousandChangesAtMostByDefault() {
    assertThat(schedule(Map.of(), List.of("serve")))
        .isEqualTo(new FeedSweeps.Schedule(Duration.ofSeconds(60), 10_000));
  }

  @Test
  void takesItsIntervalAndBatchFromFlagsOrVariables() {
    assertThat(
            schedule(
                Map.of(),
                List.of("serve", "--feed-sweep-interval", "5", "--feed-sweep-batch", "7")))
        .isEqualTo(new FeedSweeps.Schedule(Duration.ofSeconds(5), 7));
    assertThat(schedule(Map.of("TRESTLE_FEED_SWEEP_INTERVAL", "0"), List.of("serve")).interval())
        .isZero();
  }
}
