package dev.trestle.samples.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.junit.ConnectionString;
import dev.trestle.junit.TrestleTest;
import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * Runs the sample, unchanged, against Trestle in this JVM ({@code @TrestleTest}: H2 in memory, a
 * free port), so the sample cannot rot.
 */
@TrestleTest
class SdkSampleTest {

  @Test
  void sampleRunsUnchangedAgainstTrestle(
      @ConnectionString String connectionString, TableService tables) {
    SdkSample.Summary summary =
        SdkSample.run(connectionString, new PrintStream(OutputStream.nullOutputStream()));

    // order-000 has Quantity 3, the batch 1..10: nine of them have Quantity >= 2
    assertThat(summary).isEqualTo(new SdkSample.Summary(11, 10, 3, true, true));
    assertThat(tables.listTables()).isEmpty();
  }
}
