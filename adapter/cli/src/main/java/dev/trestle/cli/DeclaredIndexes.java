package dev.trestle.cli;

import dev.trestle.PropertyIndexInfo;
import dev.trestle.TableException;
import dev.trestle.cli.config.IndexDeclaration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the property indexes that serve's settings declare, one after another on a thread of
 * their own, so that the server answers while a large table's index is built; queries read through
 * each one once it is ready. A declaration that fails (its table missing) is logged and skipped.
 */
final class DeclaredIndexes {
  private static final Logger log = LoggerFactory.getLogger(DeclaredIndexes.class);

  private DeclaredIndexes() {}

  static void createInBackground(ServerRuntime runtime, List<IndexDeclaration> declarations) {
    if (declarations.isEmpty()) {
      return;
    }
    Thread.ofPlatform()
        .daemon()
        .name("trestle-declared-indexes")
        .start(() -> create(runtime, declarations));
  }

  private static void create(ServerRuntime runtime, List<IndexDeclaration> declarations) {
    for (IndexDeclaration declaration : declarations) {
      String account =
          declaration.account() == null ? runtime.primaryAccount().name() : declaration.account();
      try {
        PropertyIndexInfo index =
            runtime
                .tableService()
                .forAccount(account)
                .createIndex(declaration.table(), declaration.properties());
        log.info("Declared index {}: {}", declaration, IndexCommand.describe(index));
      } catch (TableException | IllegalArgumentException e) {
        log.warn("Could not declare the index {}: {}", declaration, e.getMessage());
      } catch (RuntimeException e) {
        // stopping the server closes the pool under a build in progress; nothing else to do
        log.warn("Could not declare the index {}: {}", declaration, e.toString());
      }
    }
  }
}
