package dev.trestle.server.internal.xml;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The Get Table Service Stats body. Trestle has no secondary: replication is always {@code live}
 * and last synced at the moment asked, which is what a fully caught-up secondary reports.
 */
public final class ServiceStatsXml {
  /**
   * HTTP-date with a two-digit day, as Azure writes it ({@code RFC_1123_DATE_TIME} would drop the
   * zero).
   */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);

  private ServiceStatsXml() {}

  public static String write(Instant lastSyncTime) {
    return new XmlText()
        .open("StorageServiceStats")
        .open("GeoReplication")
        .element("Status", "live")
        .element("LastSyncTime", HTTP_DATE.format(lastSyncTime))
        .close("GeoReplication")
        .close("StorageServiceStats")
        .toString();
  }
}
