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
    assertThat(JdbcUrls.setting(durable, "MAX_COMPACT_TIME")).isEqualTo("0");
  }

  @Test
  void settingsAlreadyRightAreKept() {
    String url =
        "jdbc:h2:file:./t;write_delay=0;db_close_on_exit=false;max_compact_time=0;cache_size=1024";
    assertThat(JdbcUrls.durable(url)).isEqualTo(url);
  }

  /**
   * With H2's 16 MB a table of 100,000 entities of 1 KB did not fit, and each filtered scan read
   * and decoded every page from the file again.
   */
  @Test
  void anEmbeddedFileCachesAQuarterOfTheHeapAtLeastH2sDefault() {
    assertThat(JdbcUrls.setting(JdbcUrls.durable("jdbc:h2:file:./t"), "CACHE_SIZE"))
        .isEqualTo(Long.toString(JdbcUrls.cacheSizeKb(Runtime.getRuntime().maxMemory())));
    assertThat(JdbcUrls.cacheSizeKb(4L << 30)).isEqualTo(1L << 20);
    assertThat(JdbcUrls.cacheSizeKb(32L << 20)).isEqualTo(16 * 1024);
    assertThat(JdbcUrls.setting(JdbcUrls.durable("jdbc:h2:tcp://db:9092/t"), "CACHE_SIZE"))
        .isNull();
  }

  /** An operator who wants H2's compaction at close may still ask for it. */
  @Test
  void aCompactionTimeGivenIsKept() {
    assertThat(
            JdbcUrls.setting(
                JdbcUrls.durable("jdbc:h2:file:./t;MAX_COMPACT_TIME=200"), "MAX_COMPACT_TIME"))
        .isEqualTo("200");
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

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:h2:file:./t;LOG=0|LOG=0",
        "jdbc:h2:./t;log = 0|LOG=0",
        "jdbc:h2:file:./t;FILE_LOCK=NO|FILE_LOCK=NO",
        "jdbc:h2:file:./t;file_lock=no|FILE_LOCK=no",
        "jdbc:h2:file:./t;LOCK_MODE=0|LOCK_MODE=0",
        "jdbc:h2:tcp://db:9092/t;LOCK_MODE=0|LOCK_MODE=0",
        "jdbc:h2:file:./t;INIT=SET WRITE_DELAY 500|WRITE_DELAY=500 (in INIT)",
        "jdbc:h2:file:./t;INIT=SET MODE REGULAR\\;SET LOG 0|LOG=0 (in INIT)",
        "jdbc:h2:file:./t;INIT=set lock_mode = 0|LOCK_MODE=0 (in INIT)",
        "jdbc:h2:file:./t;INIT=SET DB_CLOSE_ON_EXIT TRUE|DB_CLOSE_ON_EXIT=TRUE (in INIT)",
        "jdbc:h2:file:./t;INIT=RUNSCRIPT FROM 'init.sql'|INIT=RUNSCRIPT FROM 'init.sql'",
        "jdbc:h2:file:./t;WRITE_DELAY=0;INIT=SET WRITE_DELAY 10|WRITE_DELAY=10 (in INIT)"
      })
  void everySettingThatLosesAcknowledgedWritesIsRefusedNamingIt(String urlAndSetting) {
    String url = urlAndSetting.substring(0, urlAndSetting.indexOf('|'));
    String named = urlAndSetting.substring(urlAndSetting.indexOf('|') + 1);
    assertThatThrownBy(() -> JdbcUrls.durable(url))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("The H2 setting " + named + " in the JDBC URL ")
        .hasMessageNotContaining("\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:h2:file:./t;LOG=1",
        "jdbc:h2:file:./t;LOG=2",
        "jdbc:h2:file:./t;FILE_LOCK=FS",
        "jdbc:h2:file:./t;FILE_LOCK=SOCKET",
        "jdbc:h2:file:./t;LOCK_MODE=3",
        "jdbc:h2:file:./t;INIT=SET WRITE_DELAY 0\\;SET LOG 2",
        "jdbc:h2:file:./t;INIT=CREATE SCHEMA IF NOT EXISTS app",
        "jdbc:h2:file:./t;AUTO_SERVER=TRUE",
        "jdbc:h2:file:./t;ACCESS_MODE_DATA=rws"
      })
  void settingsThatKeepAcknowledgedWritesAreAccepted(String url) {
    assertThat(JdbcUrls.durable(url)).startsWith(url).contains(";WRITE_DELAY=0");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:h2:memFS:t",
        "jdbc:h2:memLZF:t",
        "jdbc:h2:nioMemFS:t",
        "jdbc:h2:nioMemLZF:t;LOG=0",
        "jdbc:h2:tcp://localhost/mem:t",
        "jdbc:h2:ssl://localhost:9092/mem:t"
      })
  void inMemoryFileSystemsAndServersAreInMemory(String url) {
    assertThat(JdbcUrls.isInMemory(url)).isTrue();
    assertThat(JdbcUrls.durable(url)).isEqualTo(url);
  }

  @Test
  void anEscapedSemicolonStaysInsideItsSetting() {
    assertThat(JdbcUrls.setting("jdbc:h2:./t;INIT=SET A 1\\;SET B 2;X=1", "INIT"))
        .isEqualTo("SET A 1;SET B 2");
  }
}
