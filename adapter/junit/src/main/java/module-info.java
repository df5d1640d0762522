/**
 * Trestle for JUnit 5 tests: {@link dev.trestle.junit.TrestleTest} starts an in-process Trestle
 * server and injects its connection string, endpoint, the embedded library or an Azure SDK client.
 * The Azure SDK is optional: its clients are injected when the test's class path has it.
 */
module dev.trestle.junit {
  exports dev.trestle.junit;

  requires transitive dev.trestle;
  requires transitive org.junit.jupiter.api;
  requires dev.trestle.server;
  requires java.net.http;
  requires org.slf4j;
  requires static com.azure.data.tables;
}
