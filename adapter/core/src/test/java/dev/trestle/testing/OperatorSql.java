package dev.trestle.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The operator SQL files under the repository's {@code sql/postgresql}, found from any module's
 * directory.
 */
public final class OperatorSql {
  private OperatorSql() {}

  public static Path file(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("sql").resolve("postgresql").resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "No sql/postgresql/" + name + " above " + Path.of("").toAbsolutePath());
  }
}
