package dev.trestle.cli.transfer;

import dev.trestle.PropertyValue;
import dev.trestle.TableEntity;
import dev.trestle.cli.CliException;
import dev.trestle.cli.ExitCode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The rows of a SQL query on any JDBC database as one table's entities: each column a typed
 * property ({@link SqlValues}), NULL an absent one. PartitionKey and RowKey come from the columns
 * of those names, or from the {@code --partition-key} and {@code --row-key} options: a column's
 * name (the column then is no property) or any SQL expression over the query's columns. A timestamp
 * column named Timestamp becomes the entities' Timestamp. Rows stream with the fetch size given; a
 * resume skips the rows already committed, so it needs a query with a stable ORDER BY.
 */
public final class SqlQuerySource implements Source {
  private static final String PK = "trestle$pk";
  private static final String RK = "trestle$rk";
  private final String url;
  private final String user;
  private final String password;
  private final String query;
  private final String partitionKey;
  private final String rowKey;
  private final int fetchSize;
  private final String table;

  /**
   * @param partitionKey a column or expression; null: the column PartitionKey
   * @param rowKey a column or expression; null: the column RowKey
   */
  public SqlQuerySource(
      String url,
      String user,
      String password,
      String query,
      String partitionKey,
      String rowKey,
      int fetchSize,
      String table) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.query = query.strip().replaceAll(";+$", "");
    this.partitionKey = partitionKey == null ? "PartitionKey" : partitionKey;
    this.rowKey = rowKey == null ? "RowKey" : rowKey;
    this.fetchSize = fetchSize;
    this.table = table;
  }

  /** The URL without a password it may carry. */
  static String redacted(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
  }

  @Override
  public List<String> tableNames() {
    return List.of(table);
  }

  @Override
  public Optional<String> find(String name) {
    return table.equalsIgnoreCase(name) ? Optional.of(table) : Optional.empty();
  }

  @Override
  public void read(String name, Position from, Predicate<TableEntity> each) {
    try (Connection connection = DriverManager.getConnection(url, user, password)) {
      // PostgreSQL streams a result only inside a transaction
      connection.setAutoCommit(false);
      List<String> columns = columns(connection);
      String pkColumn = column(columns, partitionKey);
      String rkColumn = column(columns, rowKey);
      String sql =
          pkColumn != null && rkColumn != null
              ? query
              : "select "
                  + (pkColumn != null ? "" : "(" + partitionKey + ") as \"" + PK + "\", ")
                  + (rkColumn != null ? "" : "(" + rowKey + ") as \"" + RK + "\", ")
                  + "q.* from ("
                  + query
                  + ") q";
      try (Statement statement =
          connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
        statement.setFetchSize(fetchSize);
        try (ResultSet rows = statement.executeQuery(sql)) {
          readRows(
              rows, pkColumn == null ? PK : pkColumn, rkColumn == null ? RK : rkColumn, from, each);
        }
      }
      connection.commit();
    } catch (SQLException e) {
      throw new CliException(
          ExitCode.DATABASE, "Cannot read the query from " + describe() + ": " + e.getMessage(), e);
    }
  }

  private void readRows(
      ResultSet rows, String pkColumn, String rkColumn, Position from, Predicate<TableEntity> each)
      throws SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    int count = meta.getColumnCount();
    SqlValues[] kinds = new SqlValues[count + 1];
    int pk = 0;
    int rk = 0;
    int timestamp = 0;
    List<Integer> properties = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      kinds[i] = SqlValues.of(meta, i);
      String label = meta.getColumnLabel(i);
      if (label.equalsIgnoreCase(pkColumn)) {
        pk = i;
      } else if (label.equalsIgnoreCase(rkColumn)) {
        rk = i;
      } else if (label.equalsIgnoreCase("Timestamp")
          && (kinds[i] == SqlValues.INSTANT || kinds[i] == SqlValues.LOCAL_TIMESTAMP)) {
        timestamp = i;
      } else {
        properties.add(i);
        names.add(label);
      }
    }
    long row = 0;
    while (rows.next()) {
      if (++row <= from.entities()) {
        continue;
      }
      String partition = kinds[pk].key(rows, pk);
      String key = kinds[rk].key(rows, rk);
      if (partition == null || key == null) {
        throw new NdjsonFile.UnreadableEntityException(
            "Row "
                + row
                + " of the query has a NULL "
                + (partition == null ? "PartitionKey" : "RowKey")
                + ".");
      }
      TableEntity.Builder entity = TableEntity.builder(partition, key);
      if (timestamp > 0) {
        PropertyValue stamp = kinds[timestamp].read(rows, timestamp);
        if (stamp != null) {
          entity.timestamp(((PropertyValue.DateTimeValue) stamp).value());
        }
      }
      for (int p = 0; p < properties.size(); p++) {
        int i = properties.get(p);
        PropertyValue value = kinds[i].read(rows, i);
        if (value != null) {
          entity.put(names.get(p), value);
        }
      }
      if (!each.test(entity.build())) {
        return;
      }
    }
  }

  /** The query's column labels, from a run that returns no row. */
  private List<String> columns(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet none = statement.executeQuery("select * from (" + query + ") q where 1 = 0")) {
      ResultSetMetaData meta = none.getMetaData();
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        labels.add(meta.getColumnLabel(i));
      }
      return labels;
    }
  }

  /** The column a key option names, or null when it is an expression. */
  private static String column(List<String> columns, String option) {
    return columns.stream().filter(c -> c.equalsIgnoreCase(option)).findFirst().orElse(null);
  }

  @Override
  public String describe() {
    return redacted(url);
  }
}
