package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.PropertyValue;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** Every EDM type comes back exactly as it was written, edge values included. */
class PropertyRoundTripTest {

  private static TableEntity roundTrip(TableService service, TableEntity entity) {
    service.createTableIfNotExists("values");
    TableClient table = service.tableClient("values");
    TableEntity stored = table.insert(entity);
    TableEntity read = table.get(entity.partitionKey(), entity.rowKey());
    assertThat(read).isEqualTo(stored);
    assertThat(read.properties()).containsExactlyEntriesOf(entity.properties());
    return read;
  }

  @DatabaseTest
  void strings(TableService service) {
    roundTrip(
        service,
        TableEntity.builder("s", "1")
            .put("Empty", "")
            .put("Unicode", "héllo wörld ✓ 日本語 \uD83D\uDE00")
            .put("Controls", "\u0000\u0001\u0002\t\n\u001f\u007f")
            .put("Quotes", "'\"\\ {} [] ''")
            .put("PrivateUse", "\uE000\uFFFD\uFFFF")
            .put("LoneSurrogates", "a\uD800b\uDC00")
            .put("Max", "x".repeat(32 * 1024))
            .build());
  }

  @DatabaseTest
  void integers(TableService service) {
    roundTrip(
        service,
        TableEntity.builder("i", "1")
            .put("Int32Min", Integer.MIN_VALUE)
            .put("Int32Max", Integer.MAX_VALUE)
            .put("Int32Zero", 0)
            .put("Int64Min", Long.MIN_VALUE)
            .put("Int64Max", Long.MAX_VALUE)
            .put("Int64Small", 1L)
            .build());
  }

  @DatabaseTest
  void doubles(TableService service) {
    TableEntity read =
        roundTrip(
            service,
            TableEntity.builder("d", "1")
                .put("NaN", Double.NaN)
                .put("PosInf", Double.POSITIVE_INFINITY)
                .put("NegInf", Double.NEGATIVE_INFINITY)
                .put("NegZero", -0.0)
                .put("Zero", 0.0)
                .put("Min", Double.MIN_VALUE)
                .put("Max", Double.MAX_VALUE)
                .put("Tenth", 0.1)
                .put("Big", 1e300)
                .put("Integral", 5.0)
                .build());
    assertThat(Double.doubleToRawLongBits((Double) read.properties().get("NegZero").value()))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @DatabaseTest
  void booleansGuidsAndBinaries(TableService service) {
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    roundTrip(
        service,
        TableEntity.builder("b", "1")
            .put("True", true)
            .put("False", false)
            .put("Guid", UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833"))
            .put("MaxGuid", new UUID(-1L, -1L))
            .put("EmptyBinary", new byte[0])
            .put("AllBytes", all)
            .put("MaxBinary", new byte[64 * 1024])
            .build());
  }

  @DatabaseTest
  void dateTimesAtTickPrecisionFrom1601To9999(TableService service) {
    roundTrip(
        service,
        TableEntity.builder("t", "1")
            .put("Earliest", Instant.parse("1601-01-01T00:00:00Z"))
            .put("Latest", Instant.parse("9999-12-31T23:59:59.9999999Z"))
            .put("Epoch", Instant.EPOCH)
            .put("BeforeEpoch", Instant.parse("1969-12-31T23:59:59.9999999Z"))
            .put("Ticks", Instant.parse("2021-09-21T01:04:07.0980562Z"))
            .build());
  }

  @DatabaseTest
  void propertiesKeepTheirOrder(TableService service) {
    TableEntity.Builder builder = TableEntity.builder("o", "1");
    for (int i = 60; i > 0; i--) {
      builder.put("p" + i, i);
    }
    builder.put("zz", 1).put("A", 2).put("m", 3);
    TableEntity read = roundTrip(service, builder.build());
    assertThat(read.properties().keySet())
        .containsExactlyElementsOf(builder.build().properties().keySet());
  }

  @DatabaseTest
  void keysWithAnyPermittedCharacters(TableService service) {
    String key = "ü \uD83D\uDE00 \uE000 'quote' \u00a0~!@$%^&*()=+";
    roundTrip(service, TableEntity.builder(key, key + "r").put("v", 1).build());
    roundTrip(service, TableEntity.builder("x".repeat(512), "y".repeat(512)).build());
  }

  @DatabaseTest
  void sameNameDifferentTypesInDifferentEntities(TableService service) {
    roundTrip(service, TableEntity.builder("m", "1").put("V", 1).build());
    roundTrip(service, TableEntity.builder("m", "2").put("V", "1").build());
    roundTrip(service, TableEntity.builder("m", "3").put("V", Map.of().isEmpty()).build());
    roundTrip(service, TableEntity.builder("m", "4").put("V", PropertyValue.of(1L)).build());
  }
}
