package dev.trestle.cli.transfer;

import dev.trestle.PropertyValue;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.UUID;

/**
 * How import --from-sql reads a column as an EDM value: the one home of that mapping (README
 * "Migrating data" shows it). NULL is an absent property.
 */
enum SqlValues {
  STRING,
  INT32,
  INT64,
  /** numeric/decimal that does not fit Int64 exactly: its exact decimal text. */
  DECIMAL_TEXT,
  DOUBLE,
  BOOLEAN,
  /** timestamp with time zone: the instant. */
  INSTANT,
  /** timestamp without time zone: read as UTC. */
  LOCAL_TIMESTAMP,
  /** date: midnight UTC. */
  DATE,
  GUID,
  BINARY;

  static SqlValues of(ResultSetMetaData meta, int column) throws SQLException {
    String typeName = String.valueOf(meta.getColumnTypeName(column)).toLowerCase(Locale.ROOT);
    if (typeName.equals("uuid")) {
      return GUID;
    }
    return switch (meta.getColumnType(column)) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> INT32;
      case Types.BIGINT -> INT64;
      case Types.NUMERIC, Types.DECIMAL ->
          meta.getScale(column) == 0
                  && meta.getPrecision(column) > 0
                  && meta.getPrecision(column) <= 18
              ? INT64
              : DECIMAL_TEXT;
      case Types.REAL, Types.FLOAT, Types.DOUBLE -> DOUBLE;
      case Types.BOOLEAN, Types.BIT -> BOOLEAN;
      case Types.TIMESTAMP_WITH_TIMEZONE -> INSTANT;
      // PostgreSQL's JDBC driver reports timestamptz as TIMESTAMP
      case Types.TIMESTAMP -> typeName.equals("timestamptz") ? INSTANT : LOCAL_TIMESTAMP;
      case Types.DATE -> DATE;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BINARY;
      default -> STRING;
    };
  }

  /** The column's value; null for SQL NULL. */
  PropertyValue read(ResultSet row, int column) throws SQLException {
    PropertyValue value =
        switch (this) {
          case STRING -> text(row.getString(column));
          case INT32 -> PropertyValue.of(row.getInt(column));
          case INT64 -> PropertyValue.of(row.getLong(column));
          case DECIMAL_TEXT -> {
            BigDecimal decimal = row.getBigDecimal(column);
            yield decimal == null ? null : PropertyValue.of(decimal.toPlainString());
          }
          case DOUBLE -> PropertyValue.of(row.getDouble(column));
          case BOOLEAN -> PropertyValue.of(row.getBoolean(column));
          case INSTANT -> {
            OffsetDateTime at = row.getObject(column, OffsetDateTime.class);
            yield at == null ? null : PropertyValue.of(at.toInstant());
          }
          case LOCAL_TIMESTAMP -> {
            LocalDateTime at = row.getObject(column, LocalDateTime.class);
            yield at == null ? null : PropertyValue.of(at.toInstant(ZoneOffset.UTC));
          }
          case DATE -> {
            LocalDate day = row.getObject(column, LocalDate.class);
            yield day == null
                ? null
                : PropertyValue.of(day.atStartOfDay().toInstant(ZoneOffset.UTC));
          }
          case GUID -> {
            UUID guid = row.getObject(column, UUID.class);
            yield guid == null ? null : PropertyValue.of(guid);
          }
          case BINARY -> {
            byte[] bytes = row.getBytes(column);
            yield bytes == null ? null : PropertyValue.of(bytes);
          }
        };
    return row.wasNull() ? null : value;
  }

  /** A key's text: strings as they are, other values in their EDM text form. */
  String key(ResultSet row, int column) throws SQLException {
    PropertyValue value = this == STRING ? text(row.getString(column)) : read(row, column);
    return value == null ? null : CsvValues.text(value);
  }

  private static PropertyValue text(String text) {
    return text == null ? null : PropertyValue.of(text);
  }
}
