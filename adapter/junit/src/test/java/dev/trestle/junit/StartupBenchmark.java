package dev.trestle.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.azure.data.tables.TableServiceClient;
import dev.trestle.TableEntity;
import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What {@code @TrestleTest} costs a test run: the first class (starting the server, in a fresh
 * JVM), each further class sharing it (a reset and the class's own work), and a second test run in
 * the same JVM (a new server, the classes already loaded). Each class creates a table through the
 * Azure SDK and reads it back, so the SDK's own first use is in the first figure too; then the
 * reset alone, as each further class pays it. Not a test: run it with
 *
 * <pre>
 *   ./mvnw -q -pl adapter/junit -am test-compile -DskipTests
 *   ./mvnw -q -pl adapter/junit dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp adapter/junit/target/classes:adapter/junit/target/test-classes:$(cat adapter/junit/target/cp.txt) \
 *       dev.trestle.junit.StartupBenchmark
 * </pre>
 */
public final class StartupBenchmark {
  private static final List<Class<?>> CLASSES =
      List.of(C01.class, C02.class, C03.class, C04.class, C05.class, C06.class, C07.class);

  private StartupBenchmark() {}

  public static void main(String[] args) {
    for (int run = 1; run <= 3; run++) {
      List<Long> millis = runOnce();
      System.out.printf(
          "test run %d: first class %d ms, then per class %s ms (median %d)%n",
          run,
          millis.get(0),
          millis.subList(1, millis.size()),
          median(millis.subList(1, millis.size())));
    }
    System.out.printf(
        "a reset after a class that left 2 tables of 10 entities: median %.1f ms%n", resetMillis());
  }

  /** The reset alone, as each further class pays it, after a class that left some data. */
  private static double resetMillis() {
    SharedServer server =
        SharedServer.start(
            ServerSettings.of(
                null,
                null,
                null,
                null,
                0,
                Map.of(TableService.DEFAULT_ACCOUNT, TrestleServer.DEV_ACCOUNT_KEY)));
    try {
      List<Long> nanos = new ArrayList<>();
      TableService tables = server.tableService(server.defaultAccount());
      for (int i = 0; i < 60; i++) {
        for (String name : List.of("orders", "customers")) {
          tables.createTable(name);
          for (int e = 0; e < 10; e++) {
            tables.tableClient(name).insert(TableEntity.builder("p", "r" + e).put("N", e).build());
          }
        }
        long start = System.nanoTime();
        server.reset();
        nanos.add(System.nanoTime() - start);
      }
      return median(nanos.subList(10, nanos.size())) / 1e6;
    } finally {
      server.close();
    }
  }

  /** Each class's wall time, from its start to its end, in run order. */
  private static List<Long> runOnce() {
    Map<String, Long> started = new ConcurrentHashMap<>();
    List<Long> durations = new ArrayList<>();
    TestExecutionListener timer =
        new TestExecutionListener() {
          @Override
          public void executionStarted(TestIdentifier id) {
            if (isClass(id)) {
              started.put(id.getUniqueId(), System.nanoTime());
            }
          }

          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              throw new IllegalStateException(id.getDisplayName() + " " + result);
            }
            if (isClass(id)) {
              durations.add((System.nanoTime() - started.get(id.getUniqueId())) / 1_000_000);
            }
          }
        };
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(CLASSES.stream().map(c -> selectClass(c)).toList())
            .configurationParameter(
                "junit.jupiter.testclass.order.default",
                "org.junit.jupiter.api.ClassOrderer$ClassName")
            .build();
    LauncherFactory.create().execute(request, timer);
    return durations;
  }

  private static boolean isClass(TestIdentifier id) {
    return id.getSource().filter(ClassSource.class::isInstance).isPresent();
  }

  private static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  /** One class's work: a table created and listed through the Azure SDK. */
  abstract static class Work {
    @Test
    void work(TableServiceClient service) {
      service.createTable("work").listEntities().stream().count();
    }
  }

  @TrestleTest
  static class C01 extends Work {}

  @TrestleTest
  static class C02 extends Work {}

  @TrestleTest
  static class C03 extends Work {}

  @TrestleTest
  static class C04 extends Work {}

  @TrestleTest
  static class C05 extends Work {}

  @TrestleTest
  static class C06 extends Work {}

  @TrestleTest
  static class C07 extends Work {}
}
