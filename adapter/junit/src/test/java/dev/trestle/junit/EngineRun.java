package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs test classes through the Jupiter engine as one test run (so they share servers as a real run
 * does), in class-name order, and asserts that all of their tests passed.
 */
final class EngineRun {
  private EngineRun() {}

  /** Runs the classes and checks that exactly {@code tests} tests ran and none failed. */
  static EngineExecutionResults passes(int tests, Class<?>... classes) {
    EngineExecutionResults results = run(classes);
    assertThat(results.allEvents().failed().stream().map(EngineRun::describe)).isEmpty();
    assertThat(results.testEvents().succeeded().count()).as("tests passed").isEqualTo(tests);
    return results;
  }

  static EngineExecutionResults run(Class<?>... classes) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(
            Arrays.stream(classes)
                .map(c -> selectClass(c))
                .toArray(s -> new org.junit.platform.engine.DiscoverySelector[s]))
        .configurationParameter(
            "junit.jupiter.testclass.order.default", "org.junit.jupiter.api.ClassOrderer$ClassName")
        .execute();
  }

  /** The failed test or container with its stack trace, for a readable assertion message. */
  static String describe(Event event) {
    StringWriter trace = new StringWriter();
    event
        .getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .ifPresent(t -> t.printStackTrace(new PrintWriter(trace)));
    return event.getTestDescriptor().getDisplayName() + ": " + trace;
  }
}
