package dev.trestle.server;

import dev.trestle.TableService;
import dev.trestle.server.support.ServerFixture;
import org.junit.jupiter.api.AfterEach;

/**
 * Base of the end-to-end tests: each test starts a server over the database the extension hands it.
 */
abstract class ServerTest {
  ServerFixture fx;

  ServerFixture start(TableService tables) {
    fx = new ServerFixture(tables);
    return fx;
  }

  @AfterEach
  void stopServer() {
    if (fx != null) {
      fx.close();
    }
  }
}
