package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.support.RawClient;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestDatabase;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

class ServerLifecycleTest {

  /**
   * Holds requests to {@code /slow...} until released, to have a request in flight at a known
   * moment.
   */
  private static final class Gate extends Handler.Wrapper {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    Gate(Handler next) {
      super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (request.getHttpURI().getQuery() != null
          && request.getHttpURI().getQuery().contains("gate=1")) {
        entered.countDown();
        release.await(30, TimeUnit.SECONDS);
      }
      return super.handle(request, response, callback);
    }
  }

  @DatabaseTest(TestDatabase.Kind.H2)
  void closeFinishesRequestsInFlightOnH2(TableService tables) throws Exception {
    Gate[] gate = new Gate[1];
    ServerFixture fx =
        new ServerFixture(
            tables.accountName(),
            TrestleServer.builder(tables)
                .port(0)
                .account(tables.accountName(), TrestleServer.DEV_ACCOUNT_KEY)
                .wrapHandler(api -> gate[0] = new Gate(api)));
    RawClient raw = fx.raw();
    CompletableFuture<RawClient.Reply> inFlight =
        CompletableFuture.supplyAsync(() -> raw.call("GET", "/Tables?gate=1").send());
    assertThat(gate[0].entered.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(fx::close);
    assertThat(refusesNewRequests(raw))
        .as("server stopped accepting while a request was in flight")
        .isTrue();
    gate[0].release.countDown();
    assertThat(inFlight.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
    closing.get(30, TimeUnit.SECONDS);
  }

  /** Polls (bounded) until a new request fails: the server has begun its graceful stop. */
  private static boolean refusesNewRequests(RawClient raw) throws InterruptedException {
    for (int attempt = 0; attempt < 200; attempt++) {
      try {
        RawClient.Reply reply = raw.call("GET", "/Tables").send();
        if (reply.status() == 503) {
          assertThat(reply.header("x-ms-error-code")).isEqualTo("ServerBusy");
          return true;
        }
      } catch (IllegalStateException e) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }
}
