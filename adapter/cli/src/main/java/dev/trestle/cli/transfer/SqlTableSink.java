package dev.trestle.cli.transfer;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes each table into a plain relational table of a PostgreSQL or H2 database: the schema is
 * inferred from all the table's entities (see {@link SqlTableColumns}), conflicts are reported, and
 * the rows go in JDBC batches in one transaction, so a table is either all there or, after a stop,
 * written again by --resume ({@code --sql-replace} drops a table of that name first).
 */
public final class SqlTableSink implements Sink {
  private static final int BATCH = 1_000;
  private final String url;
  private final String user;
  private final String password;
  private final String tableName;
  private final boolean replace;
  private final PrintWriter report;

  /**
   * @param tableName the relational table's name; null: the Trestle table's own
   */
  public SqlTableSink(
      String url,
      String user,
      String password,
      String tableName,
      boolean replace,
      PrintWriter report) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.tableName = tableName;
    this.replace = replace;
    this.report = report;
  }

  /**
   * A table is committed whole or not at all (see {@link Spooled#close()}), so a resume always
   * starts it from the beginning.
   */
  @Override
  public Table open(String table, Position from) {
    if (!from.atStart()) { // only a checkpoint of an older Trestle, which committed a part
      throw new CliException(
          ExitCode.USAGE,
          "Table "
              + table
              + " was committed in part by an earlier version; export it again without --resume,"
              + " with --sql-replace.");
    }
    return new Spooled(tableName != null ? tableName : table, replace);
  }

  private final class Spooled implements Table {
    private final String target;
    private final boolean dropFirst;
    private final EntitySpool spool = new EntitySpool();
    private Committed committed = Committed.NONE;
    private boolean complete;

    Spooled(String target, boolean dropFirst) {
      this.target = target;
      this.dropFirst = dropFirst;
    }

    @Override
    public void add(TableEntity entity) {
      spool.add(entity);
    }

    @Override
    public void allAdded() {
      complete = true;
    }

    @Override
    public Committed committed() {
      return committed;
    }

    /**
     * Writes the table in one transaction once every entity was added; after a stop, nothing: its
     * columns are inferred from all its entities, so a part could not be continued.
     */
    @Override
    public void close() {
      if (!complete) {
        spool.close();
        return;
      }
      try (spool;
          Connection connection = DriverManager.getConnection(url, user, password)) {
        SqlTableColumns columns = new SqlTableColumns(spool.types());
        for (String conflict : columns.conflicts()) {
          report.println("Table " + target + ": " + conflict + ".");
        }
        connection.setAutoCommit(false);
        SqlColumnTypes types = SqlColumnTypes.of(connection);
        create(connection, types, columns);
        long inexact = insert(connection, types, columns);
        if (inexact > 0) {
          report.println(
              "Table "
                  + target
                  + ": "
                  + inexact
                  + " values are not stored exactly ("
                  + types.loss()
                  + ").");
        }
        connection.commit();
        committed = new Committed(spool.count(), spool.last());
      } catch (SQLException e) {
        throw new CliException(
            ExitCode.DATABASE,
            "Cannot write table " + target + " into " + describe() + ": " + reason(e),
            e);
      }
    }

    /**
     * The database's reason in one line: a batch's own failure rather than the driver's summary,
     * which repeats the statement with every value bound (kilobytes of entity data).
     */
    private static String reason(SQLException e) {
      SQLException cause =
          e instanceof java.sql.BatchUpdateException && e.getNextException() != null
              ? e.getNextException()
              : e;
      String message = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
      return message.length() <= 300 ? message : message.substring(0, 300) + "...";
    }

    private void create(Connection connection, SqlColumnTypes types, SqlTableColumns columns)
        throws SQLException {
      List<String> definitions = new ArrayList<>();
      definitions.add(SqlColumnTypes.quote("PartitionKey") + " " + types.keys() + " not null");
      definitions.add(SqlColumnTypes.quote("RowKey") + " " + types.keys() + " not null");
      definitions.add(SqlColumnTypes.quote("Timestamp") + " " + types.timestamp());
      for (SqlTableColumns.Column column : columns.columns()) {
        definitions.add(SqlColumnTypes.quote(column.name()) + " " + types.of(column.type()));
      }
      definitions.add(
          "primary key ("
              + SqlColumnTypes.quote("PartitionKey")
              + ", "
              + SqlColumnTypes.quote("RowKey")
              + ")");
      try (Statement statement = connection.createStatement()) {
        if (dropFirst) {
          statement.execute("drop table if exists " + SqlColumnTypes.quote(target));
        }
        statement.execute(
            "create table "
                + SqlColumnTypes.quote(target)
                + " ("
                + String.join(", ", definitions)
                + ")");
      } catch (SQLException e) {
        throw new CliException(
            ExitCode.DATABASE,
            "Cannot create table "
                + target
                + " in "
                + describe()
                + ": "
                + e.getMessage()
                + " (--sql-replace drops an existing table of that name first; --sql-table"
                + " names another).",
            e);
      }
    }

    /** Inserts the spooled entities; the values the columns do not hold exactly. */
    private long insert(Connection connection, SqlColumnTypes types, SqlTableColumns columns)
        throws SQLException {
      List<SqlTableColumns.Column> all = columns.columns();
      StringBuilder sql = new StringBuilder("insert into " + SqlColumnTypes.quote(target) + " (");
      List<String> names = new ArrayList<>();
      SqlTableColumns.KEYS.forEach(key -> names.add(SqlColumnTypes.quote(key)));
      all.forEach(column -> names.add(SqlColumnTypes.quote(column.name())));
      sql.append(String.join(", ", names)).append(") values (");
      sql.append("?, ".repeat(names.size() - 1)).append("?)");
      try (PreparedStatement insert = connection.prepareStatement(sql.toString())) {
        long[] pending = {0};
        long[] inexact = {0};
        SQLException[] failed = {null};
        spool.replay(
            entity -> {
              if (failed[0] != null) {
                return;
              }
              try {
                inexact[0] += bind(insert, entity, columns, types);
                insert.addBatch();
                if (++pending[0] % BATCH == 0) {
                  insert.executeBatch();
                }
              } catch (SQLException e) {
                failed[0] = e;
              }
            });
        if (failed[0] != null) {
          throw failed[0];
        }
        insert.executeBatch();
        return inexact[0];
      }
    }

    /** Binds the entity's row; how many of its values the columns do not hold exactly. */
    private int bind(
        PreparedStatement insert, TableEntity entity, SqlTableColumns columns, SqlColumnTypes types)
        throws SQLException {
      int inexact = 0;
      insert.setString(1, entity.partitionKey());
      insert.setString(2, entity.rowKey());
      Instant timestamp = entity.timestamp();
      if (timestamp != null && !types.holdsExactly(timestamp)) {
        inexact++;
      }
      insert.setObject(3, timestamp == null ? null : types.held(timestamp));
      List<SqlTableColumns.Column> all = columns.columns();
      Object[] values = new Object[all.size()];
      for (Map.Entry<String, PropertyValue> property : entity.properties().entrySet()) {
        if (property.getValue() instanceof PropertyValue.StringValue s
            && !types.holdsText(s.value())) {
          throw new CliException(
              ExitCode.DATA,
              "Table "
                  + target
                  + ": entity (PartitionKey='"
                  + entity.partitionKey()
                  + "', RowKey='"
                  + entity.rowKey()
                  + "') property '"
                  + property.getKey()
                  + "' holds U+0000, which this database's text columns cannot store; nothing of"
                  + " the table was written.");
        }
        SqlTableColumns.Column column = columns.of(property.getKey(), property.getValue().type());
        values[all.indexOf(column)] = property.getValue();
        if (!types.holdsExactly(property.getValue())) {
          inexact++;
        }
      }
      for (int i = 0; i < all.size(); i++) {
        int index = 4 + i;
        if (values[i] == null) {
          insert.setNull(index, SqlColumnTypes.jdbcType(all.get(i).type()));
          continue;
        }
        switch ((PropertyValue) values[i]) {
          case PropertyValue.StringValue s -> insert.setString(index, s.value());
          case PropertyValue.Int32Value v -> insert.setInt(index, v.value());
          case PropertyValue.Int64Value v -> insert.setLong(index, v.value());
          case PropertyValue.DoubleValue v -> insert.setDouble(index, v.value());
          case PropertyValue.BooleanValue v -> insert.setBoolean(index, v.value());
          case PropertyValue.DateTimeValue v -> insert.setObject(index, types.held(v.value()));
          case PropertyValue.GuidValue v -> insert.setObject(index, v.value());
          case PropertyValue.BinaryValue v -> insert.setBytes(index, v.value());
        }
      }
      return inexact;
    }
  }

  @Override
  public boolean keepsTimestamps() {
    return true;
  }

  @Override
  public String describe() {
    return SqlQuerySource.redacted(url);
  }
}
