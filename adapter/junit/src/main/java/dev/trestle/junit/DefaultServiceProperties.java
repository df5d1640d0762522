package dev.trestle.junit;

import dev.trestle.model.TableLimits;
import dev.trestle.server.auth.SharedKeySigner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Restores an account's default service properties through the server's own Set Service Properties,
 * so that the server also forgets the CORS rules it caches for a few seconds.
 */
final class DefaultServiceProperties {
  /** Every element present, each as the service has it before anyone sets it. */
  static final String DOCUMENT =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>"
          + "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read>"
          + "<Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>"
          + metrics("HourMetrics")
          + metrics("MinuteMetrics")
          + "<Cors/></StorageServiceProperties>";

  private static final String CONTENT_TYPE = "application/xml";

  private HttpClient http; // made on first use: most test runs never set service properties

  private static String metrics(String element) {
    return "<"
        + element
        + "><Version>1.0</Version><Enabled>false</Enabled>"
        + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></"
        + element
        + ">";
  }

  /** Sets the defaults on the account behind {@code endpoint}, signed with its key. */
  synchronized void restore(String endpoint, String account, String base64Key) {
    if (http == null) {
      http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }
    URI uri = URI.create(endpoint + "/?restype=service&comp=properties");
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    String stringToSign =
        SharedKeySigner.stringToSign(
            "PUT", null, CONTENT_TYPE, date, "/" + account + uri.getRawPath() + "?comp=properties");
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("x-ms-version", TableLimits.API_VERSION)
            .header("x-ms-date", date)
            .header("Content-Type", CONTENT_TYPE)
            .header(
                "Authorization",
                "SharedKey "
                    + account
                    + ":"
                    + SharedKeySigner.ofBase64(base64Key).signBase64(stringToSign))
            .PUT(HttpRequest.BodyPublishers.ofString(DOCUMENT))
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not reset the service properties of " + endpoint + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while resetting " + endpoint, e);
    }
    if (response.statusCode() != 202) {
      throw new IllegalStateException(
          "Resetting the service properties of "
              + endpoint
              + " was answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
  }
}
