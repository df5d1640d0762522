package dev.trestle.server.internal.endpoints;

import dev.trestle.EdmType;
import dev.trestle.Ordering;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * The {@code trestle-orderby} option: {@code RowKey desc} (or {@code PartitionKey desc,RowKey
 * desc}) alone keeps its meaning, descending (PartitionKey, RowKey) order; otherwise {@code
 * <property> [asc|desc]} with {@code trestle-orderby-type=Edm.<type>} orders by a property's values
 * of that type (required for a user property: nothing is inferred, as one property may hold values
 * of several types; PartitionKey and RowKey default to Edm.String, Timestamp to Edm.DateTime).
 * Anything else is {@code InvalidQueryParameterValue}.
 */
final class OrderByOption {
  private OrderByOption() {}

  /** The ordering, or null for descending key order. */
  static Ordering parse(String option, String typeOption) {
    String order = option.trim();
    if (typeOption == null
        && (order.equals("RowKey desc") || order.equals("PartitionKey desc,RowKey desc"))) {
      return null;
    }
    String[] words = order.split(" +");
    if (words.length == 0 || words.length > 2 || words[0].isEmpty() || words[0].contains(",")) {
      throw invalid(ExtensionEndpoints.ORDER_BY, "must be '<property> [asc|desc]'");
    }
    boolean descending =
        switch (words.length == 2 ? words[1] : "asc") {
          case "asc" -> false;
          case "desc" -> true;
          default -> throw invalid(ExtensionEndpoints.ORDER_BY, "must end in 'asc' or 'desc'");
        };
    String property = words[0];
    EdmType type;
    if (typeOption != null) {
      try {
        type = EdmType.fromOdataName(typeOption.trim());
      } catch (TableException e) {
        throw invalid(ExtensionEndpoints.ORDER_BY_TYPE, "must be an EDM type such as Edm.Int32");
      }
    } else {
      type =
          switch (property) {
            case "PartitionKey", "RowKey" -> EdmType.STRING;
            case "Timestamp" -> EdmType.DATE_TIME;
            default ->
                throw invalid(
                    ExtensionEndpoints.ORDER_BY_TYPE,
                    "must name the type of the values to order by, such as Edm.Int32");
          };
    }
    try {
      return new Ordering(property, type, descending);
    } catch (TableException e) {
      throw new TableException(TableErrorCode.INVALID_QUERY_PARAMETER_VALUE, e.getMessage());
    }
  }

  private static TableException invalid(String option, String rule) {
    return new TableException(
        TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
        "The value of query parameter '" + option + "' " + rule + ".");
  }
}
