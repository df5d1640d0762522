package dev.trestle.cli.transfer;

import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * The column type each EDM type gets in a relational table written by export --to-sql, per target
 * database: the one home of that mapping (README "Migrating data" shows it).
 */
enum SqlColumnTypes {
  POSTGRESQL(
      "text",
      "timestamp with time zone",
      "bytea",
      "timestamp with time zone holds microseconds: the seventh fractional digit of DateTimes and"
          + " Timestamps is dropped"),
  // H2 keeps nanoseconds when asked, so a DateTime keeps its seventh digit there
  H2("character varying", "timestamp(9) with time zone", "binary varying", "-0.0 is stored as 0.0");

  private final String text;
  private final String timestamp;
  private final String binary;
  private final String loss;

  SqlColumnTypes(String text, String timestamp, String binary, String loss) {
    this.text = text;
    this.timestamp = timestamp;
    this.binary = binary;
    this.loss = loss;
  }

  /** Whether this database's column keeps the value exactly (see {@link #loss()}). */
  boolean holdsExactly(PropertyValue value) {
    return switch (this) {
      case POSTGRESQL ->
          !(value instanceof PropertyValue.DateTimeValue t) || holdsExactly(t.value());
      case H2 ->
          !(value instanceof PropertyValue.DoubleValue d)
              || Double.doubleToRawLongBits(d.value()) != Long.MIN_VALUE;
    };
  }

  /**
   * The instant as this database's timestamp column holds it: PostgreSQL's microseconds are cut,
   * not rounded, since rounding would carry 9999-12-31T23:59:59.9999999Z into the year 10000, which
   * no DateTime holds.
   */
  OffsetDateTime held(Instant at) {
    Instant kept = this == POSTGRESQL ? at.truncatedTo(ChronoUnit.MICROS) : at;
    return OffsetDateTime.ofInstant(kept, ZoneOffset.UTC);
  }

  /** Whether this database's text columns can hold the string (PostgreSQL's cannot hold NUL). */
  boolean holdsText(String value) {
    return this != POSTGRESQL || value.indexOf('\u0000') < 0;
  }

  /** Whether this database's timestamp column keeps the instant exactly. */
  boolean holdsExactly(Instant at) {
    return this != POSTGRESQL || at.getNano() % 1_000 == 0;
  }

  /** What values this database's columns cannot hold exactly, for the export's report. */
  String loss() {
    return loss;
  }

  static SqlColumnTypes of(Connection connection) throws SQLException {
    String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    if (product.contains("postgresql")) {
      return POSTGRESQL;
    }
    if (product.contains("h2")) {
      return H2;
    }
    throw new CliException(
        ExitCode.USAGE,
        "export --to-sql writes into PostgreSQL or H2, not "
            + connection.getMetaData().getDatabaseProductName()
            + ".");
  }

  String keys() {
    return text;
  }

  String timestamp() {
    return timestamp;
  }

  String of(EdmType type) {
    return switch (type) {
      case STRING -> text;
      case INT32 -> "integer";
      case INT64 -> "bigint";
      case DOUBLE -> "double precision";
      case BOOLEAN -> "boolean";
      case DATE_TIME -> timestamp;
      case GUID -> "uuid";
      case BINARY -> binary;
    };
  }

  /** The JDBC type a NULL of this EDM type is bound as. */
  static int jdbcType(EdmType type) {
    return switch (type) {
      case STRING -> Types.VARCHAR;
      case INT32 -> Types.INTEGER;
      case INT64 -> Types.BIGINT;
      case DOUBLE -> Types.DOUBLE;
      case BOOLEAN -> Types.BOOLEAN;
      case DATE_TIME -> Types.TIMESTAMP_WITH_TIMEZONE;
      case GUID -> Types.OTHER;
      case BINARY -> Types.VARBINARY;
    };
  }

  /** A quoted identifier: any property name, case kept. */
  static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
