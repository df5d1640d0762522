package dev.trestle.server.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import dev.trestle.json.MetadataLevel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ODataJsonWriterTest {
  @Test
  void writesMinimalMetadataWithAnnotationsOnlyWhereNeeded() {
    TableEntity entity =
        TableEntity.builder("p'1", "r")
            .put("S", "s")
            .put("I", 1)
            .put("D", 5.0)
            .put("N", Double.NaN)
            .put("L", 7L)
            .put("T", Instant.parse("1973-10-04T00:00:00Z"))
            .etag("W/\"datetime'2021-09-21T01%3A04%3A07.0980562Z'\"")
            .timestamp(Instant.parse("2021-09-21T01:04:07.0980560Z"))
            .build();
    String json =
        new String(
            new ODataJsonWriter(MetadataLevel.MINIMAL, "http://h/acct", "acct")
                .entity("t1", entity, null),
            StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"odata.metadata\":\"http://h/acct/$metadata#t1/@Element\","
                + "\"odata.etag\":\"W/\\\"datetime'2021-09-21T01%3A04%3A07.0980562Z'\\\"\","
                + "\"PartitionKey\":\"p'1\",\"RowKey\":\"r\",\"Timestamp\":\"2021-09-21T01:04:07.0980560Z\","
                + "\"S\":\"s\",\"I\":1,\"D\":5.0,\"N@odata.type\":\"Edm.Double\",\"N\":\"NaN\","
                + "\"L@odata.type\":\"Edm.Int64\",\"L\":\"7\",\"T@odata.type\":\"Edm.DateTime\",\"T\":\"1973-10-04T00:00:00Z\"}");
  }

  /**
   * Full metadata annotates what JSON cannot tell, as minimal does (Azure's recorded answers: no
   * Int32, Boolean or finite Double annotation), and Timestamp.
   */
  @Test
  void fullMetadataAnnotatesWhatJsonCannotTellAndSelectRendersMissingAsNull() {
    TableEntity entity =
        TableEntity.builder("p'1", "r")
            .put("I", 1)
            .put("S", "x")
            .put("B", true)
            .put("D", 5.0)
            .put("N", Double.NaN)
            .put("L", 7L)
            .etag("W/\"e\"")
            .build();
    String json =
        new String(
            new ODataJsonWriter(MetadataLevel.FULL, "http://h/acct", "acct")
                .entities("t1", List.of(entity), List.of("I", "B", "D", "N", "L", "Missing")),
            StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"odata.metadata\":\"http://h/acct/$metadata#t1&$select=I,B,D,N,L,Missing\",\"value\":[{"
                + "\"odata.type\":\"acct.t1\",\"odata.id\":\"http://h/acct/t1(PartitionKey='p''1',RowKey='r')\","
                + "\"odata.etag\":\"W/\\\"e\\\"\",\"odata.editLink\":\"t1(PartitionKey='p''1',RowKey='r')\","
                + "\"I\":1,\"B\":true,\"D\":5.0,\"N@odata.type\":\"Edm.Double\",\"N\":\"NaN\","
                + "\"L@odata.type\":\"Edm.Int64\",\"L\":\"7\",\"Missing\":null}]}");
  }

  @Test
  void aSelectedNameNoPropertyCanHaveRepeatsNoKey() {
    TableEntity entity = TableEntity.builder("p", "r").put("L", 7L).etag("W/\"e\"").build();
    String json =
        new String(
            new ODataJsonWriter(MetadataLevel.MINIMAL, "http://h/acct", "acct")
                .entity(
                    "t1",
                    entity,
                    List.of("odata.etag", "L", "L@odata.type", "odata.metadata", "1bad", "M")),
            StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"odata.metadata\":\"http://h/acct/$metadata#t1/@Element&$select=odata.etag,L,"
                + "L@odata.type,odata.metadata,1bad,M\",\"odata.etag\":\"W/\\\"e\\\"\","
                + "\"L@odata.type\":\"Edm.Int64\",\"L\":\"7\",\"M\":null}");
  }
}
