package dev.trestle.server.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableException;
import java.util.EnumSet;
import java.util.Set;

/** What a grant allows, asserted operation by operation: an accepted credential is not enough. */
final class GrantAssertions {
  /** The operations of a read-only token ({@code sp=r}, and {@code srt=o} for an account SAS). */
  static final Set<Operation> READ = EnumSet.of(Operation.QUERY_ENTITIES, Operation.GET_ENTITY);

  private GrantAssertions() {}

  /** Shared Key: every operation on any table and any keys, with no key range. */
  static void assertFullAccess(Grant grant) {
    assertAllowsOnly(grant, "orders", EnumSet.allOf(Operation.class));
    assertThat(grant.keyRange()).isEmpty();
  }

  /** These operations on this table (at keys p/r), and every other operation refused with a 403. */
  static void assertAllowsOnly(Grant grant, String table, Set<Operation> allowed) {
    for (Operation operation : Operation.values()) {
      if (allowed.contains(operation)) {
        grant.authorize(operation, table);
        grant.authorizeEntity(operation, table, "p", "r");
      } else {
        assertThatThrownBy(() -> grant.authorize(operation, table))
            .as(operation.name())
            .isInstanceOfSatisfying(
                TableException.class, e -> assertThat(e.status()).isEqualTo(403));
      }
    }
  }
}
