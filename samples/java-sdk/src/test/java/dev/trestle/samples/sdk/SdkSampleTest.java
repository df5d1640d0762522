package dev.trestle.samples.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Runs the sample against a Trestle server on a free port, so the sample cannot rot. */
class SdkSampleTest {

  @Test
  void sampleRunsUnchangedAgainstTrestle() {
    try (TableService tables =
            TableService.builder()
                .jdbcUrl("jdbc:h2:mem:sdk-sample-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
                .build();
        TrestleServer server = TrestleServer.builder(tables).port(0).build().start()) {
      String connectionString =
          "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
              + TrestleServer.DEV_ACCOUNT_KEY
              + ";TableEndpoint="
              + server.endpoint("devstoreaccount1")
              + ";";

      SdkSample.Summary summary =
          SdkSample.run(connectionString, new PrintStream(OutputStream.nullOutputStream()));

      // order-000 has Quantity 3, the batch 1..10: nine of them have Quantity >= 2
      assertThat(summary).isEqualTo(new SdkSample.Summary(11, 10, 3, true, true));
      assertThat(tables.queryTables(dev.trestle.TableQuery.all()).tables()).isEmpty();
    }
  }
}
