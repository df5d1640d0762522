package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
  @Test
  void requestIdsAreDistinctVersionFourUuidsInTheirCanonicalForm() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String id = RequestIds.next();
      UUID uuid = UUID.fromString(id);
      assertThat(uuid.version()).isEqualTo(4);
      assertThat(uuid.variant()).isEqualTo(2);
      assertThat(uuid.toString()).isEqualTo(id);
      ids.add(id);
    }
    assertThat(ids).hasSize(1000);
  }
}
