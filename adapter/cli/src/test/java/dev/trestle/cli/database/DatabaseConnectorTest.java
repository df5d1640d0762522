package dev.trestle.cli.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.trestle.cli.config.DatabaseSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.h2.api.DatabaseEventListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseConnectorTest {

  /** What H2 tells of the database's life, in order. */
  static final List<String> EVENTS = new CopyOnWriteArrayList<>();

  /** Instantiated by H2 from the URL's DATABASE_EVENT_LISTENER. */
  public static final class Events implements DatabaseEventListener {
    @Override
    public void opened() {
      EVENTS.add("opened");
    }

    @Override
    public void closingDatabase() {
      EVENTS.add("closing");
    }
  }

  /**
   * The start-up probe keeps its connection until the pool has one: an embedded database is opened
   * and closed once per command, not opened, closed and opened again (after a killed copy, the
   * first close was where H2's compaction failed; see dev.trestle.store.JdbcUrls).
   */
  @Test
  void anEmbeddedH2DatabaseIsNotClosedBetweenTheProbeAndThePool(@TempDir Path dir) {
    EVENTS.clear();
    String url =
        "jdbc:h2:file:"
            + dir.resolve("db").toAbsolutePath()
            + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE;DATABASE_EVENT_LISTENER='"
            + Events.class.getName()
            + "'";
    DatabaseSettings settings =
        new DatabaseSettings(url, null, null, 2, Duration.ZERO, Duration.ofSeconds(2), false);
    try (HikariDataSource pool = DatabaseConnector.open(settings, null)) {
      assertThat(EVENTS).containsExactly("opened");
    }
    assertThat(EVENTS).containsExactly("opened", "closing");
  }
}
