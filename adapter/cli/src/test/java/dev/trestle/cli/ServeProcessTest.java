package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real program, as a user starts it: banner with connection string, /health, clean stop on
 * SIGTERM.
 */
class ServeProcessTest {
  private static final Pattern ENDPOINT = Pattern.compile("serves the Table API at (http://\\S+)");

  @TempDir Path dir;

  @Test
  void serveOnAnH2FilePrintsAConnectionStringAnswersLogsAndStopsOnSigterm() throws Exception {
    Path stderr = dir.resolve("stderr.txt");
    Process process =
        TrestleProcess.builder(
                dir, Map.of("TRESTLE_PORT", "0", "TRESTLE_LOG_LEVEL", "debug"), "serve")
            .redirectError(stderr.toFile())
            .start();
    try {
      List<String> banner = new ArrayList<>();
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        banner.add(line);
        if (line.startsWith("Press Ctrl+C")) {
          break;
        }
      }
      String text = String.join("\n", banner);
      Matcher endpoint = ENDPOINT.matcher(text);
      assertThat(endpoint.find()).as(text + "\n" + Files.readString(stderr)).isTrue();
      assertThat(endpoint.group(1)).matches("http://127\\.0\\.0\\.1:\\d+/devstoreaccount1");
      assertThat(text)
          .contains("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8")
          .contains("TableEndpoint=" + endpoint.group(1) + ";")
          .contains("jdbc:h2:file:./trestle-data/trestle");
      assertThat(dir.resolve("trestle-data")).isDirectory();

      String root = endpoint.group(1).substring(0, endpoint.group(1).lastIndexOf('/'));
      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(root + "/health")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      HttpResponse<String> unsigned =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(endpoint.group(1) + "/Tables?sig=s3cret"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(unsigned.statusCode()).isEqualTo(403);
    } finally {
      process.destroy();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    String log = Files.readString(stderr);
    assertThat(log)
        .contains("Stopped")
        .doesNotContain("ERROR")
        .doesNotContain("\tat ")
        .doesNotContain("s3cret");
    // one access-log line per request, with the operation, the error code and the SAS signature
    // redacted
    assertThat(log.lines().filter(line -> line.contains("/devstoreaccount1/Tables")))
        .singleElement()
        .asString()
        .contains("GET /devstoreaccount1/Tables?sig=REDACTED 403 AuthenticationFailed QueryTables");
  }
}
