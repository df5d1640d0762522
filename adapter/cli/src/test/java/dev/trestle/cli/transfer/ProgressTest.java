package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line of a transfer, on a clock the test moves. */
class ProgressTest {
  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong now = new AtomicLong(5 * SECOND);
  private final StringWriter out = new StringWriter();

  private Progress progress(Progress.Style style) {
    return new Progress(new PrintWriter(out, true), style, now::get);
  }

  @Test
  void aTerminalLineIsRedrawnWithRateElapsedAndEtaWhenTheTotalIsKnown() {
    Progress progress = progress(Progress.Style.TERMINAL);
    progress.tables(2, 4_096);
    now.addAndGet(SECOND);
    progress.add(1_024);
    assertThat(out.toString())
        .isEqualTo(
            "\rtables 0/2, 1,024 entities of 4,096, 1,024 entities/s, elapsed 0:01, ETA 0:03\033[K");
    progress.tableDone();
    now.addAndGet(SECOND);
    progress.add(1_024);
    progress.finish();
    assertThat(out.toString())
        .endsWith(
            "\rtables 1/2, 2,048 entities of 4,096, 1,024 entities/s, elapsed 0:02, ETA 0:02\033[K\n");
  }

  @Test
  void withoutATerminalALogLineEveryTenSecondsAndNoEtaWhenTheTotalIsUnknown() {
    Progress progress = progress(Progress.Style.LOG);
    progress.tables(1, -1);
    now.addAndGet(9 * SECOND);
    progress.add(1_024);
    assertThat(out.toString()).isEmpty();
    now.addAndGet(SECOND);
    progress.add(1_024);
    progress.finish();
    assertThat(out.toString())
        .isEqualTo(
            "progress: tables 0/1, 2,048 entities, 205 entities/s, elapsed 0:10"
                + System.lineSeparator());
  }

  @Test
  void quietSaysNothing() {
    Progress progress = progress(Progress.Style.QUIET);
    progress.tables(1, 10_000);
    now.addAndGet(60 * SECOND);
    progress.add(1_024);
    progress.finish();
    assertThat(out.toString()).isEmpty();
    assertThat(progress.entities()).isEqualTo(1_024);
    assertThat(progress.seconds()).isEqualTo(60.0);
  }
}
