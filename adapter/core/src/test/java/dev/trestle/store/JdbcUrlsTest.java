package dev.trestle.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JdbcUrlsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:h2:file:./data/t",
        "jdbc:h2:./data/t",
        "jdbc:h2:~/t",
        "jdbc:h2:/var/lib/t",
        "jdbc:h2:tcp://db:9092/t",
        "JDBC:H2:file:./t",
        "jdbc:h2:file:./t;MODE=PostgreSQL"
      })
  void everyH2DatabaseOnDiskCommitsSynchronouslyAndIsClosedByTrestle(String url) {
    String durable = JdbcUrls.durable(url);
    assertThat(durable).startsWith(url);
    assertThat(JdbcUrls.setting(durable, "WRITE_DELAY")).isEqualTo("0");
    assertThat(JdbcUrls.setting(durable, "DB_CLOSE_ON_EXIT")).isEqualTo("FALSE");
  }

  @Test
  void settingsAlreadyRightAreKept() {
    String url = "jdbc:h2:file:./t;write_delay=0;db_close_on_exit=false";
    assertThat(JdbcUrls.durable(url)).isEqualTo(url);
  }

  @Test
  void aWriteDelayIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> JdbcUrls.durable("jdbc:h2:file:./t;WRITE_DELAY=500"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("WRITE_DELAY=500");
    assertThatThrownBy(() -> JdbcUrls.durable("jdbc:h2:file:./t;Write_Delay = 10"))
        .hasMessageContaining("WRITE_DELAY");
  }

  @Test
  void closingOnExitIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> JdbcUrls.durable("jdbc:h2:file:./t;DB_CLOSE_ON_EXIT=TRUE"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DB_CLOSE_ON_EXIT=TRUE");
  }

  @Test
  void inMemoryAndPostgresqlAreLeftAsTheyAre() {
    assertThat(JdbcUrls.durable("jdbc:h2:mem:x;WRITE_DELAY=500"))
        .isEqualTo("jdbc:h2:mem:x;WRITE_DELAY=500");
    assertThat(JdbcUrls.isInMemory("jdbc:h2:mem:x")).isTrue();
    assertThat(JdbcUrls.isInMemory("jdbc:h2:file:./mem")).isFalse();
    assertThat(JdbcUrls.durable("jdbc:postgresql://h/db?x=1"))
        .isEqualTo("jdbc:postgresql://h/db?x=1");
  }
}
