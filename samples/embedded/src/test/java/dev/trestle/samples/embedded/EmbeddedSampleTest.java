package dev.trestle.samples.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

class EmbeddedSampleTest {

  @Test
  void sampleRunsOnAPlainDataSource() {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:embedded-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

    EmbeddedSample.Summary summary =
        EmbeddedSample.run(dataSource, new PrintStream(OutputStream.nullOutputStream()));

    assertThat(summary)
        .isEqualTo(new EmbeddedSample.Summary(1, true, "UpdateConditionNotSatisfied"));
  }
}
