package dev.trestle.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** "Fails with Azure code X", said one way in every module's tests. */
public final class TableAssertions {
  private TableAssertions() {}

  /**
   * Asserts that the call throws a {@link TableException} with this code; returns it for checks
   * beyond the code.
   */
  public static TableException assertFails(TableErrorCode code, ThrowingCallable call) {
    return assertCode(catchThrowable(call), code);
  }

  /**
   * Asserts that a throwable caught or translated elsewhere is a {@link TableException} with this
   * code.
   */
  public static TableException assertCode(Throwable thrown, TableErrorCode code) {
    assertThat(thrown)
        .as("a TableException with code %s", code.code())
        .isInstanceOf(TableException.class);
    TableException e = (TableException) thrown;
    assertThat(e.errorCode()).as("error code of: %s", e.getMessage()).isEqualTo(code);
    return e;
  }
}
