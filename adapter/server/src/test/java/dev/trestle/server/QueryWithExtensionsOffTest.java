package dev.trestle.server;

import static dev.trestle.server.support.ReplyAssertions.assertError;

import dev.trestle.TableService;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.ExtensionsOff;

/**
 * Every test of {@link QueryTest} against a service whose extensions are switched off: standard
 * requests are answered the same either way.
 */
@ExtensionsOff
class QueryWithExtensionsOffTest extends QueryTest {

  @DatabaseTest
  void theServiceOfTheseTestsHasItsExtensionsOff(TableService tables) {
    start(tables);
    String name = fx.newTable("off").getTableName();
    assertError(fx.raw().call("GET", "/" + name + "()/$count").send(), 501, "NotImplemented");
  }
}
