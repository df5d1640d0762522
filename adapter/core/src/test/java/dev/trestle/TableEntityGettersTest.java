package dev.trestle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TableEntityGettersTest {
  private static final Instant WHEN = Instant.parse("2024-05-06T07:08:09.1234567Z");
  private static final UUID ID = UUID.fromString("6a1b0f3e-5514-4800-b5f8-49808b9cfab6");

  private static final TableEntity ENTITY =
      TableEntity.builder("pk", "rk")
          .put("Name", "Ada")
          .put("Age", 36)
          .put("Big", Long.MAX_VALUE)
          .put("Score", 2.5)
          .put("Active", true)
          .put("Born", WHEN)
          .put("Id", ID)
          .put("Blob", new byte[] {1, 2, 3})
          .build();

  @Test
  void eachGetterReturnsItsTypeWithoutACast() {
    assertThat(ENTITY.getString("Name")).isEqualTo("Ada");
    assertThat(ENTITY.getInt32("Age")).isEqualTo(36);
    assertThat(ENTITY.getInt64("Big")).isEqualTo(Long.MAX_VALUE);
    assertThat(ENTITY.getDouble("Score")).isEqualTo(2.5);
    assertThat(ENTITY.getBoolean("Active")).isTrue();
    assertThat(ENTITY.getDateTime("Born")).isEqualTo(WHEN);
    assertThat(ENTITY.getGuid("Id")).isEqualTo(ID);
    assertThat(ENTITY.getBinary("Blob")).containsExactly(1, 2, 3);
  }

  @Test
  void aMissingPropertyIsNullForEveryGetter() {
    assertThat(ENTITY.getString("Missing")).isNull();
    assertThat(ENTITY.getInt32("Missing")).isNull();
    assertThat(ENTITY.getInt64("Missing")).isNull();
    assertThat(ENTITY.getDouble("Missing")).isNull();
    assertThat(ENTITY.getBoolean("Missing")).isNull();
    assertThat(ENTITY.getDateTime("Missing")).isNull();
    assertThat(ENTITY.getGuid("Missing")).isNull();
    assertThat(ENTITY.getBinary("Missing")).isNull();
  }

  @Test
  void namesAreCaseSensitiveAsInTheTableModel() {
    assertThat(ENTITY.getString("name")).isNull();
  }

  @Test
  void anotherTypeIsRefusedNamingBothTypes() {
    assertThatThrownBy(() -> ENTITY.getInt32("Name"))
        .isInstanceOf(ClassCastException.class)
        .hasMessage("Property 'Name' of entity (pk, rk) is Edm.String, not Edm.Int32.");
    assertThatThrownBy(() -> ENTITY.getString("Age")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getInt32("Big")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getDouble("Big")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getDateTime("Name")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getGuid("Name")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getBinary("Name")).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ENTITY.getBoolean("Name")).isInstanceOf(ClassCastException.class);
  }

  @Test
  void anInt32WidensExactlyToInt64AndDouble() {
    assertThat(ENTITY.getInt64("Age")).isEqualTo(36L);
    assertThat(ENTITY.getDouble("Age")).isEqualTo(36.0);
  }

  @Test
  void theBinaryGetterReturnsACopy() {
    ENTITY.getBinary("Blob")[0] = 9;
    assertThat(ENTITY.getBinary("Blob")).containsExactly(1, 2, 3);
  }
}
