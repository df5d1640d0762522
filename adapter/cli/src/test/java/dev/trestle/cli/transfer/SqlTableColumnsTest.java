package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.EdmType;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlTableColumnsTest {
  @Test
  void aPropertyOfSeveralTypesGetsAColumnPerTypeKeptApartFromOtherNames() {
    Map<String, Set<EdmType>> types = new LinkedHashMap<>();
    types.put("Name", EnumSet.of(EdmType.STRING));
    types.put("Price", EnumSet.of(EdmType.INT32, EdmType.DOUBLE));
    types.put("price_int32", EnumSet.of(EdmType.BOOLEAN));
    SqlTableColumns columns = new SqlTableColumns(types);
    assertThat(columns.columns())
        .extracting(SqlTableColumns.Column::name)
        .containsExactly("Name", "Price_Int32_2", "Price_Double", "price_int32");
    assertThat(columns.of("Price", EdmType.DOUBLE).name()).isEqualTo("Price_Double");
    assertThat(columns.conflicts())
        .containsExactly(
            "property 'Price' has several types: columns [Price_Int32_2 (Edm.Int32), Price_Double"
                + " (Edm.Double)]");
  }

  @Test
  void identifiersAreQuotedWithTheirQuotesDoubled() {
    assertThat(SqlColumnTypes.quote("a \"b\" c")).isEqualTo("\"a \"\"b\"\" c\"");
  }
}
