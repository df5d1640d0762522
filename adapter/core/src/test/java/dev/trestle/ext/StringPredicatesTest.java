package dev.trestle.ext;

import static dev.trestle.testing.TableAssertions.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import dev.trestle.EntityQuery;
import dev.trestle.TableClient;
import dev.trestle.TableEntity;
import dev.trestle.TableErrorCode;
import dev.trestle.TableExtensions;
import dev.trestle.TableService;
import dev.trestle.filter.FilterEvaluator;
import dev.trestle.filter.FilterParser;
import dev.trestle.testing.DatabaseTest;
import java.util.ArrayList;
import java.util.List;

/**
 * The string functions of the extensions' filters, answered by the database exactly as the
 * reference evaluator answers them, on values chosen to break a LIKE pattern, a collation, a
 * locale-dependent lower() or a code-point (rather than UTF-16 unit) comparison.
 */
class StringPredicatesTest {
  private static final String[] NAMES = {
    "abc",
    "ABC",
    "aBc-D",
    "xabcx",
    "100%",
    "100",
    "a_c",
    "abc_",
    "back\\slash",
    "\\",
    "it's",
    "",
    "STRAßE",
    "straße",
    "\u0130stanbul",
    "istanbul",
    "ＡＢＣ",
    "ａｂｃ",
    "\uD83D\uDE00 smile",
    "smile \uD83D\uDE00",
    "\uD801\uDC00\uD801\uDC28",
    "\uFFFF\uE000",
    "x\u0000y",
    "x\u0001y",
    "x\u0002y",
    "\u0000\u0002",
    "\u0001",
    "\u0000",
  };

  private static final String[] FILTERS = {
    "contains(Name,'abc')",
    "contains(Name,'%')",
    "contains(Name,'_')",
    "contains(Name,'a_c')",
    "endswith(Name,'%')",
    "endswith(Name,'_')",
    "contains(Name,'\\')",
    "endswith(Name,'\\')",
    "contains(Name,'''')",
    "contains(Name,'')",
    "endswith(Name,'')",
    "substringof('bc', Name)",
    "endswith(Name,'c')",
    "endswith(Name,'\uDE00')",
    "contains(Name,'\uD83D')",
    "contains(Name,'\uD83D\uDE00')",
    "endswith(Name,'\uDC28')",
    "contains(Name,'\uE000')",
    "endswith(Name,'\uE000')",
    "contains(Name,'\u0000')",
    "contains(Name,'\u0001')",
    "contains(Name,'\u0002')",
    "endswith(Name,'\u0001')",
    "endswith(Name,'\u0002')",
    "endswith(Name,'\u0000\u0002')",
    "contains(Name,'\u0001y')",
    "tolower(Name) eq 'abc'",
    "tolower(Name) ne 'abc'",
    "toupper(Name) eq 'ABC'",
    "tolower(Name) gt 'istanbul'",
    "tolower(Name) le 'b'",
    "tolower(Name) eq 'straße'",
    "toupper(Name) eq 'STRASSE'",
    "tolower(Name) eq 'istanbul'",
    "tolower(Name) eq 'ａｂｃ'",
    "tolower(Name) eq '\uD801\uDC00\uD801\uDC28'",
    "startswith(tolower(Name),'ab')",
    "startswith(toupper(Name),'\uFFFF')",
    "contains(tolower(Name),'b')",
    "endswith(toupper(Name),'C')",
    "contains(toupper(Name),'%')",
    "not contains(Name,'a')",
    "contains(Name,'a') or endswith(Name,'0')",
    "contains(Other,'1')",
    "contains(Number,'1')",
    "tolower(Number) ne 'x'",
    "contains(Missing,'')",
    "contains(RowKey,'0')",
    "endswith(PartitionKey,'p')",
    "tolower(PartitionKey) eq 'p'",
    "contains(Timestamp,'2')",
  };

  private static List<TableEntity> seed(TableClient items) {
    for (int i = 0; i < NAMES.length; i++) {
      items.insert(
          TableEntity.builder("p", String.format("r%02d", i))
              .put("Name", NAMES[i])
              .put("Other", i % 2 == 0 ? NAMES[i] : "1")
              .put("Number", 100 + i)
              .build());
    }
    items.insert(TableEntity.builder("P", "no-name").put("Number", 1L).build());
    return items.query(EntityQuery.all()).entities();
  }

  @DatabaseTest
  void everyFunctionMatchesWhatTheReferenceEvaluatorMatches(TableService service) {
    service.createTable("words");
    TableClient words = service.tableClient("words");
    List<TableEntity> stored = seed(words);
    TableExtensions ext = words.extensions();

    for (String filter : FILTERS) {
      List<String> expected = new ArrayList<>();
      for (TableEntity entity : stored.reversed()) {
        if (FilterEvaluator.matches(FilterParser.parseExtended(filter), entity)) {
          expected.add(entity.partitionKey() + "/" + entity.rowKey());
        }
      }
      List<String> actual =
          ext.queryDescending(EntityQuery.filter(filter)).entities().stream()
              .map(e -> e.partitionKey() + "/" + e.rowKey())
              .toList();
      assertThat(actual).as(filter).containsExactlyElementsOf(expected);
      assertThat(ext.count(filter)).as("count " + filter).isEqualTo(expected.size());
    }
  }

  @DatabaseTest
  void literalPatternCharactersAndCaseGiveTheExpectedCounts(TableService service) {
    service.createTable("words");
    TableClient words = service.tableClient("words");
    seed(words);
    TableExtensions ext = words.extensions();

    assertThat(ext.count("contains(Name,'%')")).isEqualTo(1);
    assertThat(ext.count("contains(Name,'_')")).isEqualTo(2);
    assertThat(ext.count("contains(Name,'\\')")).isEqualTo(2);
    assertThat(ext.count("contains(Name,'\u0001')")).as("not inside U+0000's escape").isEqualTo(2);
    assertThat(ext.count("tolower(Name) eq 'abc'")).isEqualTo(2);
    assertThat(ext.count("contains(Number,'1')")).isZero();
    assertThat(ext.deleteWhere("contains(tolower(Name),'smile')")).isEqualTo(2);
  }

  @DatabaseTest
  void aDeclaredIndexChangesNoAnswer(TableService service) {
    service.createTable("words");
    TableClient words = service.tableClient("words");
    seed(words);
    service.createIndex("words", "Name", EdmType.STRING);
    TableExtensions ext = words.extensions();

    assertThat(ext.count("startswith(Name,'ab') and contains(Name,'c')")).isEqualTo(2);
    assertThat(ext.count("startswith(tolower(Name),'ab')")).isEqualTo(4);
  }

  @DatabaseTest
  void aStandardQueryRefusesTheFunctions(TableService service) {
    service.createTable("words");
    TableClient words = service.tableClient("words");

    for (String filter :
        new String[] {"contains(Name,'a')", "endswith(Name,'a')", "tolower(Name) eq 'a'"}) {
      assertFails(TableErrorCode.INVALID_INPUT, () -> words.query(EntityQuery.filter(filter)));
    }
  }
}
