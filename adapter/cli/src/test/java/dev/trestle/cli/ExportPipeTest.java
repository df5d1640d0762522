package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.BulkWriteOptions;
import dev.trestle.BulkWriter;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export into a pipe whose reader goes away ({@code | head -1}, a gzip that died) stops and says
 * so, exit 5: it used to read on, lose every later line and report them all exported, exit 0.
 */
class ExportPipeTest {
  @TempDir Path dir;

  @Test
  void anExportWhoseReaderLeavesFailsInsteadOfClaimingEverything() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("db").resolve("trestle");
    try (TableService service = TableService.builder().jdbcUrl(url).build()) {
      service.createTable("Big");
      try (BulkWriter writer = service.bulkWriter("Big", BulkWriteOptions.defaults())) {
        for (int i = 0; i < 20_000; i++) {
          writer.add(TableEntity.builder("p" + i / 1000, "r" + i).put("S", "x".repeat(40)).build());
        }
      }
    }
    Process process =
        TrestleProcess.builder(
                dir, java.util.Map.of(), "export", "--quiet", "--db", url, "--table", "Big")
            .redirectError(dir.resolve("stderr.txt").toFile())
            .start();
    try (InputStream out = process.getInputStream()) {
      byte[] first = out.readNBytes(100);
      assertThat(new String(first, StandardCharsets.UTF_8)).startsWith("{\"PartitionKey\"");
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = java.nio.file.Files.readString(dir.resolve("stderr.txt"));
    assertThat(process.exitValue()).as(err).isEqualTo(ExitCode.DATA);
    assertThat(err).contains("Cannot write standard output");
  }
}
