package dev.trestle.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlErrorsTest {

  @ParameterizedTest
  @ValueSource(strings = {"08000", "08001", "08003", "08006", "57P01", "57P02", "57P03", "57P05", "53300", "90098",
      "90121", "90067"})
  void aConnectionLevelFailureIsServerBusy(String state) {
    RuntimeException translated = SqlErrors.translate(
        new DataAccessException("lost", new SQLException("the database went away", state)));

    assertThat(translated).isInstanceOfSatisfying(TableException.class,
        e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.SERVER_BUSY));
  }

  @Test
  void thePoolsTimeoutIsServerBusyWhateverItsState() {
    RuntimeException translated = SqlErrors.translate(new DataAccessException("no connection",
        new SQLTransientConnectionException("trestle - Connection is not available, request timed out after 2000ms")));

    assertThat(translated).isInstanceOfSatisfying(TableException.class,
        e -> assertThat(e.errorCode()).isEqualTo(TableErrorCode.SERVER_BUSY));
  }

  @ParameterizedTest
  @ValueSource(strings = {"23505", "42P01", "XX000", "57014", "40001"})
  void aStatementsOwnFailureStaysWhatItIs(String state) {
    DataAccessException failure = new DataAccessException("failed", new SQLException("no", state));

    assertThat(SqlErrors.translate(failure)).isSameAs(failure);
  }
}
