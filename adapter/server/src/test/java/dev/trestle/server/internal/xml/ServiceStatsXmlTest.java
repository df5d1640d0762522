package dev.trestle.server.internal.xml;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableServiceGeoReplicationStatus;
import com.azure.data.tables.models.TableServiceStatistics;
import com.azure.xml.XmlReader;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;

class ServiceStatsXmlTest {

  @Test
  void replicationIsLiveAndSyncedAtTheGivenTime() {
    assertThat(ServiceStatsXml.write(Instant.parse("2021-01-09T22:28:43Z")))
        .isEqualTo(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceStats><GeoReplication><Status>live</Status>"
                + "<LastSyncTime>Sat, 09 Jan 2021 22:28:43 GMT</LastSyncTime></GeoReplication></StorageServiceStats>");
  }

  @Test
  void theJavaSdkReadsIt() throws Exception {
    TableServiceStatistics stats =
        TableServiceStatistics.fromXml(
            XmlReader.fromString(ServiceStatsXml.write(Instant.parse("2021-01-09T22:28:43Z"))));

    assertThat(stats.getGeoReplication().getStatus())
        .isEqualTo(TableServiceGeoReplicationStatus.LIVE);
    assertThat(stats.getGeoReplication().getLastSyncTime())
        .isEqualTo(OffsetDateTime.parse("2021-01-09T22:28:43Z"));
  }
}
