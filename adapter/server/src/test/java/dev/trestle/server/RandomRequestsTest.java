package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.support.RandomRequests;
import dev.trestle.server.support.RawClient;
import dev.trestle.testing.DatabaseTest;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whatever a client sends, the answer is never a server error, and every error names its code. The
 * build runs a fixed sequence, so that it passes or fails the same way every time; explore others
 * with {@code -Dtrestle.seed=N} (any number) or {@code -Dtrestle.seed=random}.
 */
class RandomRequestsTest extends ServerTest {
  private static final Logger LOG = LoggerFactory.getLogger(RandomRequestsTest.class);
  private static final int REQUESTS = 600;
  private static final long DEFAULT_SEED = 20261123L;

  @DatabaseTest
  void noRandomRequestGetsAServerError(TableService tables) {
    start(tables);
    String chosen = System.getProperty("trestle.seed");
    long seed =
        chosen == null
            ? DEFAULT_SEED
            : chosen.equals("random") ? System.nanoTime() : Long.parseLong(chosen);
    LOG.info("RandomRequestsTest seed {} (rerun with -Dtrestle.seed={})", seed, seed);
    RandomRequests requests =
        new RandomRequests(new Random(seed), fx.newTable("rand").getTableName());
    for (int i = 0; i < REQUESTS; i++) {
      RandomRequests.Request request = requests.next();
      RawClient.Call call = fx.raw().call(request.method(), request.pathAndQuery());
      request.headers().forEach(call::header);
      if (request.body() != null) {
        call.body(request.body(), request.headers().get("Content-Type"));
      }
      if (!request.signed()) {
        call.unsigned();
      }
      RawClient.Reply reply = call.send();
      assertThat(reply.status())
          .as("seed %d, request %d: %s -> %s", seed, i, request, reply.body())
          .isLessThan(500);
      if (reply.status() >= 400) {
        assertThat(reply.header("x-ms-error-code"))
            .as("seed %d, request %d: %s", seed, i, request)
            .isNotBlank();
      }
    }
  }
}
