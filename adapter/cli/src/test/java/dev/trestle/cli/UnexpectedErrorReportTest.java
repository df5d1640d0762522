package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

class UnexpectedErrorReportTest {

  @Test
  void anUnexpectedErrorNamesItsInnermostCauseOnOneLine() {
    StringWriter err = new StringWriter();
    int exitCode =
        Trestle.report(
            new DataAccessException(
                "Error while running ConnectionCallable",
                new SQLException("Timeout trying to lock table\nline two", "HYT00")),
            new PrintWriter(err, true));
    assertThat(exitCode).isEqualTo(ExitCode.SOFTWARE);
    assertThat(err.toString().strip().lines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("unexpected error: org.jooq.exception.DataAccessException: Error while running")
        .contains("caused by java.sql.SQLException: Timeout trying to lock table line two");
  }
}
