package dev.trestle.store.internal.database;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The supported databases, as registered for {@link ServiceLoader}, and which one a DataSource
 * reaches.
 */
public final class DatabaseTypes {
  private static final List<DatabaseType> ALL =
      ServiceLoader.load(DatabaseType.class, DatabaseType.class.getClassLoader()).stream()
          .map(ServiceLoader.Provider::get)
          .toList();

  private DatabaseTypes() {}

  /** The database this DataSource's connections reach. */
  public static DatabaseType of(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return recognise(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException e) {
      throw new TableException(
          TableErrorCode.INTERNAL_ERROR, "Cannot connect to the database: " + e.getMessage(), e);
    }
  }

  /**
   * The database of this JDBC product name; refused, naming the supported ones, when there is none.
   */
  public static DatabaseType recognise(String productName) {
    for (DatabaseType type : ALL) {
      if (type.recognises(productName)) {
        return type;
      }
    }
    throw new IllegalStateException(
        "Trestle supports "
            + supported()
            + ", not "
            + productName
            + ". Point the JDBC URL at one of them.");
  }

  /** The names of the supported databases: {@code H2 and PostgreSQL}. */
  static String supported() {
    List<String> names = ALL.stream().map(DatabaseType::name).toList();
    if (names.size() < 2) {
      return String.join("", names);
    }
    return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", "))
        + " and "
        + names.get(names.size() - 1);
  }
}
