package dev.trestle.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableEntity;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The filter cases of the shared black-box suite (conformance QueryTest), evaluated in memory on
 * the same fixture, so the reference evaluator and the HTTP-level expectations cannot drift apart.
 */
class FilterConformanceFixtureTest {
  private static final String G1 = "11111111-2222-3333-4444-555555555555";
  private static final String G2 = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

  private static final List<TableEntity> FIXTURE =
      List.of(
          TableEntity.builder("q", "r01")
              .put("Name", "Alice")
              .put("Age", 30)
              .put("Score", 1.5)
              .put("Active", true)
              .put("Nick", "Al")
              .put("Big", 5_000_000_000L)
              .put("When", Instant.parse("2020-01-01T00:00:00Z"))
              .put("Id", UUID.fromString(G1))
              .put("Bin", Base64.getDecoder().decode("AQI="))
              .build(),
          TableEntity.builder("q", "r02")
              .put("Name", "Bob")
              .put("Age", 25)
              .put("Score", 2.75)
              .put("Active", false)
              .put("Big", -1L)
              .put("When", Instant.parse("2021-06-15T12:00:00.5Z"))
              .put("Id", UUID.fromString(G2))
              .put("Bin", Base64.getDecoder().decode("Cgs="))
              .build(),
          TableEntity.builder("q", "r03")
              .put("Name", "O'Brien")
              .put("Age", 40)
              .put("Score", 10.25)
              .put("Active", true)
              .put("Big", 5_000_000_001L)
              .put("When", Instant.parse("2019-12-31T23:59:59.9999999Z"))
              .put("Bin", Base64.getDecoder().decode("/w=="))
              .build(),
          TableEntity.builder("q", "r04")
              .put("Name", "alice")
              .put("Age", 30)
              .put("Score", 0.5)
              .put("Active", false)
              .build(),
          TableEntity.builder("q", "r05").put("Name", "Zed").put("Big", 0L).build(),
          TableEntity.builder("q2", "r01").put("Name", "Other").put("Age", 99).build(),
          TableEntity.builder("qm", "m1")
              .put("Age", "30")
              .put("Score", "1.5")
              .put("Active", "true")
              .build(),
          TableEntity.builder("qm", "m2")
              .put("Age", 30)
              .put("Score", 1.5)
              .put("Active", true)
              .build());

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Name eq 'Alice'|q/r01",
        "Name ne 'Alice' and PartitionKey eq 'q'|q/r02,q/r03,q/r04,q/r05",
        "Name gt 'Bob'|q/r03,q/r04,q/r05,q2/r01",
        "Name lt 'Bob'|q/r01",
        "Name eq 'O''Brien'|q/r03",
        "Age eq 30 and PartitionKey ne 'qm'|q/r01,q/r04",
        "Age ne 30 and PartitionKey ne 'qm'|q/r02,q/r03,q2/r01",
        "Age gt 30|q/r03,q2/r01",
        "Big eq 5000000000L|q/r01",
        "Big gt 5000000000L|q/r03",
        "Score eq 1.5 and PartitionKey eq 'q'|q/r01",
        "Score ne 1.5 and PartitionKey eq 'q'|q/r02,q/r03,q/r04",
        "Score gt 2.0|q/r02,q/r03",
        "Active eq true and PartitionKey eq 'q'|q/r01,q/r03",
        "Active ne true and PartitionKey eq 'q'|q/r02,q/r04",
        "When eq datetime'2020-01-01T00:00:00Z'|q/r01",
        "When ne datetime'2020-01-01T00:00:00Z'|q/r02,q/r03",
        "When gt datetime'2019-12-31T23:59:59.9999999Z'|q/r01,q/r02",
        "Id eq guid'" + G1 + "'|q/r01",
        "Id ne guid'" + G1 + "'|q/r02",
        "Bin eq X'0102'|q/r01",
        "Bin eq binary'0a0b'|q/r02",
        "Name eq 'Alice' or Name eq 'Bob'|q/r01,q/r02",
        "not (Age lt 30) and Age gt 0 and PartitionKey eq 'q'|q/r01,q/r03,q/r04",
        "(Age eq 30 or Age eq 40) and Active eq true and PartitionKey eq 'q'|q/r01,q/r03",
        "Missing eq 'x'|",
        "Nick ne 'zzz'|q/r01",
        "PartitionKey eq 'qm' and Age eq 30|qm/m2",
        "PartitionKey eq 'qm' and Age eq '30'|qm/m1",
        "PartitionKey eq 'qm' and Score eq '1.5'|qm/m1",
        "PartitionKey eq 'qm' and Age gt 29|qm/m2",
        "PartitionKey eq 'qm' and Score lt 2.0|qm/m2",
        "PartitionKey eq 'q' and RowKey ge 'r02' and RowKey lt 'r04'|q/r02,q/r03",
        "PartitionKey gt 'q' and PartitionKey lt 'qz'|q2/r01,qm/m1,qm/m2",
      })
  void matchesWhatTheConformanceSuiteExpects(String filter, String expected) {
    FilterExpression parsed = FilterParser.parse(filter);
    List<String> keys =
        FIXTURE.stream()
            .filter(e -> FilterEvaluator.matches(parsed, e))
            .map(e -> e.partitionKey() + "/" + e.rowKey())
            .toList();
    assertThat(keys).isEqualTo(expected == null ? List.of() : Arrays.asList(expected.split(",")));
  }
}
