package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableEntity;
import dev.trestle.cli.transfer.Checkpoint;
import dev.trestle.cli.transfer.NdjsonEnd;
import dev.trestle.cli.transfer.Position;
import dev.trestle.cli.transfer.Progress;
import dev.trestle.cli.transfer.Sink;
import dev.trestle.cli.transfer.SqlTableSink;
import dev.trestle.cli.transfer.StopSignal;
import dev.trestle.cli.transfer.Transfer;
import dev.trestle.json.EntityLines;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export into a SQL table stopped within the table: the table is committed whole or not at all,
 * so the resume writes all of it (a part committed at the stop was once dropped by the resume,
 * which then wrote only the rest).
 */
class SqlExportStopTest {
  private static final int ENTITIES = 5;
  private static final int STOP_AFTER = 3;

  @TempDir Path dir;

  @DatabaseTest
  void aStopWithinATableCommitsNoneOfItAndTheResumeWritesAllOfIt(TestDatabase db) throws Exception {
    try (CliDatabases.Empty empty = CliDatabases.empty(db)) {
      String url =
          db.kind() == TestDatabase.Kind.H2
              ? "jdbc:h2:mem:sql-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
              : empty.url();
      Path file = dir.resolve("Rows.ndjson");
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < ENTITIES; i++) {
        lines.add(EntityLines.write(TableEntity.builder("p", "r" + i).put("n", i).build()));
      }
      Files.write(file, lines);
      Path checkpointFile = dir.resolve("export.checkpoint");
      StopSignal stop = new StopSignal();

      assertThatThrownBy(
              () ->
                  transfer(
                      file,
                      Checkpoint.fresh(checkpointFile, "export"),
                      stop,
                      new StoppingSink(sink(url, db), stop)))
          .isInstanceOf(Transfer.StoppedException.class);
      assertThat(count(url, db)).isEqualTo(-1); // no table: nothing of it was committed
      assertThat(checkpointFile).exists();

      long written =
          transfer(
              file, Checkpoint.resume(checkpointFile, "export"), new StopSignal(), sink(url, db));

      assertThat(written).isEqualTo(ENTITIES);
      assertThat(count(url, db)).isEqualTo(ENTITIES);
    }
  }

  private static long transfer(Path file, Checkpoint checkpoint, StopSignal stop, Sink sink) {
    Progress progress = new Progress(new PrintWriter(new StringWriter()), Progress.detect(true));
    return new Transfer(NdjsonEnd.file(file, "Rows"), sink, checkpoint, progress, stop)
        .run(List.of("Rows"));
  }

  private static SqlTableSink sink(String url, TestDatabase db) {
    return new SqlTableSink(
        url, db.username(), db.password(), null, false, new PrintWriter(new StringWriter()));
  }

  /** The rows of the SQL table, -1 when there is no such table. */
  private static long count(String url, TestDatabase db) throws Exception {
    try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
        ResultSet tables =
            connection.getMetaData().getTables(null, connection.getSchema(), "Rows", null)) {
      if (!tables.next()) {
        return -1;
      }
      try (Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("select count(*) from \"Rows\"")) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /** Asks the transfer to stop after a few entities, as SIGTERM would. */
  private record StoppingSink(Sink sink, StopSignal stop) implements Sink {
    @Override
    public Table open(String table, Position from) {
      Table out = sink.open(table, from);
      int[] added = {0};
      return new Table() {
        @Override
        public void add(TableEntity entity) {
          out.add(entity);
          if (++added[0] == STOP_AFTER) {
            stop.request();
          }
        }

        @Override
        public void allAdded() {
          out.allAdded();
        }

        @Override
        public Committed committed() {
          return out.committed();
        }

        @Override
        public void close() {
          out.close();
        }
      };
    }

    @Override
    public boolean keepsTimestamps() {
      return sink.keepsTimestamps();
    }

    @Override
    public String describe() {
      return sink.describe();
    }
  }
}
