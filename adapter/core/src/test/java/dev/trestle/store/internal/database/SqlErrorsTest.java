package dev.trestle.store.internal.database;

import static dev.trestle.testing.TableAssertions.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableErrorCode;
import dev.trestle.store.internal.h2.H2DatabaseType;
import dev.trestle.store.internal.postgresql.PostgresDatabaseType;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

/** Each database's own SQLStates are read through its type; the standard ones on every database. */
class SqlErrorsTest {
  private static final SqlErrors H2 = new SqlErrors(new H2DatabaseType().sqlStates());
  private static final SqlErrors POSTGRESQL = new SqlErrors(new PostgresDatabaseType().sqlStates());

  private static DataAccessException failure(String state) {
    return new DataAccessException("failed", new SQLException("failed", state));
  }

  @Test
  void theStandardStatesMeanTheSameOnEveryDatabase() {
    for (SqlErrors errors : new SqlErrors[] {H2, POSTGRESQL}) {
      assertThat(errors.isDuplicateKey(failure("23505"))).isTrue();
      assertThat(errors.isMissingParent(failure("23503"))).isTrue();
      assertThat(errors.isTransient(failure("40001"))).isTrue();
      assertThat(errors.isCancelled(failure("57014"))).isTrue();
      assertThat(errors.isUnavailable(failure("08006"))).isTrue();
      assertThat(errors.isUnavailable(failure("42P01"))).isFalse();
    }
  }

  @Test
  void eachDatabasesOwnStatesAreReadThroughItsType() {
    assertThat(POSTGRESQL.isUnavailable(failure("57P01"))).isTrue();
    assertThat(POSTGRESQL.isUnavailable(failure("53300"))).isTrue();
    assertThat(POSTGRESQL.isTransient(failure("40P01"))).isTrue();
    assertThat(H2.isUnavailable(failure("90098"))).isTrue();
    assertThat(H2.isMissingParent(failure("23506"))).isTrue();
    assertThat(H2.isTransient(failure("HYT00"))).isTrue();
  }

  /**
   * pgjdbc raises 22023 itself for a parameter left without a value, a fault of the statement; the
   * server raises it for a stored value that cannot be converted (an invalid base64 text, say).
   */
  @Test
  void aDataExceptionTheDriverRaisedItselfIsNotAStoredValues() {
    PSQLException ofTheDriver =
        new PSQLException("No value specified for parameter 1.", PSQLState.INVALID_PARAMETER_VALUE);
    PSQLException ofTheServer =
        new PSQLException(new ServerErrorMessage("SERROR\0C22023\0Minvalid base64 end sequence\0"));
    assertThat(ofTheServer.getSQLState()).isEqualTo("22023");

    assertThat(POSTGRESQL.isMalformedValue(new DataAccessException("failed", ofTheDriver)))
        .isFalse();
    assertThat(POSTGRESQL.isMalformedValue(new DataAccessException("failed", ofTheServer)))
        .isTrue();
    assertThat(H2.isMalformedValue(failure("22018"))).isTrue();
  }

  @Test
  void anUnavailableDatabaseBecomesServerBusy() {
    assertCode(POSTGRESQL.translate(failure("57P01")), TableErrorCode.SERVER_BUSY);
    DataAccessException wrongStatement = failure("42601");
    assertThat(POSTGRESQL.translate(wrongStatement)).isSameAs(wrongStatement);
  }

  @Test
  void aDatabaseCanTellFailuresApartByVendorCodeWhereTheyShareAState() {
    SqlStates sharedState =
        new SqlStates() {
          @Override
          public boolean duplicateKey(String state, int vendorCode) {
            return state.equals("23000") && vendorCode == 1062;
          }

          @Override
          public boolean missingParent(String state, int vendorCode) {
            return state.equals("23000") && vendorCode == 1452;
          }
        };
    SqlErrors errors = new SqlErrors(sharedState);
    DataAccessException duplicate =
        new DataAccessException("dup", new SQLException("dup", "23000", 1062));
    DataAccessException orphan =
        new DataAccessException("fk", new SQLException("fk", "23000", 1452));
    assertThat(errors.isDuplicateKey(duplicate)).isTrue();
    assertThat(errors.isMissingParent(duplicate)).isFalse();
    assertThat(errors.isMissingParent(orphan)).isTrue();
    assertThat(errors.isDuplicateKey(orphan)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "08000", "08001", "08003", "08006", "57P01", "57P02", "57P03", "57P05", "53300", "53100",
        "53200", "25006", "57014"
      })
  void aFailureOfThePostgresqlServerIsServerBusy(String state) {
    assertCode(POSTGRESQL.translate(failure(state)), TableErrorCode.SERVER_BUSY);
  }

  @ParameterizedTest
  @ValueSource(strings = {"08000", "90098", "90121", "90067", "90097", "57014"})
  void aFailureOfTheH2DatabaseIsServerBusy(String state) {
    assertCode(H2.translate(failure(state)), TableErrorCode.SERVER_BUSY);
  }

  @Test
  void thePoolsTimeoutIsServerBusyWhateverItsState() {
    RuntimeException translated =
        POSTGRESQL.translate(
            new DataAccessException(
                "no connection",
                new SQLTransientConnectionException(
                    "trestle - Connection is not available, request timed out after 2000ms")));

    assertCode(translated, TableErrorCode.SERVER_BUSY);
  }

  /**
   * A lost race (serialization failure, deadlock, lock timeout) that reaches the translation was
   * not run again, or kept losing: the client may retry it later. Retry loops see it by its cause.
   */
  @ParameterizedTest
  @CsvSource({"postgresql, 40001", "postgresql, 40P01", "h2, 40001", "h2, HYT00"})
  void aLostRaceIsServerBusy(String database, String state) {
    SqlErrors errors = database.equals("h2") ? H2 : POSTGRESQL;
    RuntimeException translated = errors.translate(failure(state));
    assertCode(translated, TableErrorCode.SERVER_BUSY);
    assertThat(errors.isTransient(translated)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"23505", "42P01", "XX000"})
  void aStatementsOwnFailureStaysWhatItIs(String state) {
    DataAccessException failure = failure(state);

    assertThat(POSTGRESQL.translate(failure)).isSameAs(failure);
    assertThat(H2.translate(failure)).isSameAs(failure);
  }
}
