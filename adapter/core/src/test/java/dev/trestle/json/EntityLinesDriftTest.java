package dev.trestle.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Where the CLI's own entity JSON once differed from the server's: lines are now read and written
 * as the service reads and writes bodies, and lines exported before still import.
 */
class EntityLinesDriftTest {
  private static final String KEYS = "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",";

  @Test
  void booleanStringsInAnyCaseAreReadAsTheServiceReadsThem() {
    TableEntity entity =
        EntityLines.read(
            KEYS
                + "\"A\":\"TRUE\",\"A@odata.type\":\"Edm.Boolean\","
                + "\"B\":\"False\",\"B@odata.type\":\"Edm.Boolean\"}");
    assertThat(entity.property("A")).contains(PropertyValue.of(true));
    assertThat(entity.property("B")).contains(PropertyValue.of(false));
    assertThatThrownBy(
            () -> EntityLines.read(KEYS + "\"A\":\"yes\",\"A@odata.type\":\"Edm.Boolean\"}"))
        .hasMessage("property 'A' is not a valid Edm.Boolean");
  }

  @Test
  void guidsNeedTheFullFormThatUuidFromStringWouldRelax() {
    assertThatThrownBy(
            () -> EntityLines.read(KEYS + "\"G\":\"1-2-3-4-5\",\"G@odata.type\":\"Edm.Guid\"}"))
        .hasMessage("property 'G' is not a valid Edm.Guid");
  }

  @Test
  void dateTimesOutsideTheServiceRangeAreRefusedWithTheirLine() {
    assertThatThrownBy(
            () ->
                EntityLines.read(
                    KEYS + "\"T\":\"1600-12-31T23:59:59Z\",\"T@odata.type\":\"Edm.DateTime\"}"))
        .hasMessage("property 'T' is outside the range of Edm.DateTime (1601-01-01 to 9999-12-31)");
  }

  @Test
  void dateTimesAreTruncatedTo100NanosecondsAndMayOmitTheZone() {
    TableEntity entity =
        EntityLines.read(
            KEYS
                + "\"T\":\"2020-02-29T12:34:56.123456789Z\",\"T@odata.type\":\"Edm.DateTime\","
                + "\"U\":\"2020-02-29T12:34\",\"U@odata.type\":\"Edm.DateTime\"}");
    assertThat(entity.property("T"))
        .contains(PropertyValue.of(Instant.parse("2020-02-29T12:34:56.1234567Z")));
    assertThat(entity.property("U"))
        .contains(PropertyValue.of(Instant.parse("2020-02-29T12:34:00Z")));
  }

  @Test
  void dateTimesAreWrittenAsTheServiceWritesThemWithTrailingZerosTrimmed() {
    TableEntity entity =
        TableEntity.builder("p", "r")
            .put("T", Instant.parse("2021-03-04T05:06:07.1200000Z"))
            .put("W", Instant.parse("2021-03-04T05:06:07Z"))
            .timestamp(Instant.parse("2021-03-04T05:06:07.1200000Z"))
            .build();
    assertThat(EntityLines.write(entity))
        .isEqualTo(
            KEYS
                + "\"Timestamp\":\"2021-03-04T05:06:07.1200000Z\",\"Timestamp@odata.type\":\"Edm.DateTime\","
                + "\"T\":\"2021-03-04T05:06:07.12Z\",\"T@odata.type\":\"Edm.DateTime\","
                + "\"W\":\"2021-03-04T05:06:07Z\",\"W@odata.type\":\"Edm.DateTime\"}");
  }

  @Test
  void linesExportedWithSevenDigitDateTimesStillImport() {
    String exportedBefore =
        KEYS
            + "\"Timestamp\":\"2024-05-06T07:08:09.1234567Z\",\"Timestamp@odata.type\":\"Edm.DateTime\","
            + "\"T\":\"2021-03-04T05:06:07.1200000Z\",\"T@odata.type\":\"Edm.DateTime\","
            + "\"L\":\"5\",\"L@odata.type\":\"Edm.Int64\",\"D\":\"NaN\",\"D@odata.type\":\"Edm.Double\"}";
    TableEntity entity = EntityLines.read(exportedBefore);
    assertThat(entity.property("T"))
        .contains(PropertyValue.of(Instant.parse("2021-03-04T05:06:07.12Z")));
    assertThat(entity.property("L")).contains(PropertyValue.of(5L));
    assertThat(entity.property("D")).contains(PropertyValue.of(Double.NaN));
    assertThat(entity.timestamp()).isEqualTo(Instant.parse("2024-05-06T07:08:09.1234567Z"));
  }

  @Test
  void aPropertyTwiceIsRefusedAsTheServiceRefusesIt() {
    assertThatThrownBy(() -> EntityLines.read(KEYS + "\"A\":1,\"A\":2}"))
        .hasMessage("property 'A' is specified more than once");
  }
}
