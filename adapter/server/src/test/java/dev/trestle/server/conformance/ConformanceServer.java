package dev.trestle.server.conformance;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.util.concurrent.CountDownLatch;

/**
 * Starts Trestle for the black-box suite in {@code shared/conformance}: {@code ConformanceServer
 * JDBC_URL PORT}. Runs until the process is stopped. See {@code conformance.sh} beside the test
 * sources.
 */
public final class ConformanceServer {
  private ConformanceServer() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: ConformanceServer JDBC_URL PORT");
      System.exit(2);
    }
    TableService tables = TableService.builder().jdbcUrl(args[0]).maximumPoolSize(16).build();
    TrestleServer server =
        TrestleServer.builder(tables).port(Integer.parseInt(args[1])).build().start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  tables.close();
                }));
    System.err.println(
        "Trestle conformance server on " + server.endpoint(TableService.DEFAULT_ACCOUNT));
    new CountDownLatch(1).await();
  }
}
