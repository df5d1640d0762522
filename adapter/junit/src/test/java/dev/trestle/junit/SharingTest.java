package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Classes with equal settings share one server per test run; other settings get their own. */
class SharingTest {
  static final List<Integer> PORTS = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void clear() {
    PORTS.clear();
  }

  @Test
  void classesWithEqualSettingsShareOneServer() {
    EngineRun.passes(4, A.class, B.class, C.class, D.class);
    assertThat(PORTS).hasSize(4).containsOnly(PORTS.get(0));
  }

  @Test
  void anotherDatabaseGetsAnotherServer() {
    EngineRun.passes(2, A.class, OtherDatabase.class);
    assertThat(PORTS).doesNotHaveDuplicates();
  }

  @Test
  void theSameAccountsWithAnotherDefaultGetAnotherServer() {
    EngineRun.passes(2, AlphaFirst.class, BetaFirst.class);
    assertThat(PORTS).doesNotHaveDuplicates();
  }

  @Test
  void eachTestRunStartsItsServerAfreshAndStopsItAtTheEnd() {
    EngineRun.passes(1, A.class);
    EngineRun.passes(1, A.class);
    assertThat(PORTS).doesNotHaveDuplicates();
    assertThat(ports.isListening(PORTS.get(0))).isFalse();
  }

  private static final Ports ports = new Ports();

  /** Whether something accepts connections on a local port. */
  static final class Ports {
    boolean isListening(int port) {
      try (java.net.Socket socket = new java.net.Socket()) {
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
        return true;
      } catch (java.io.IOException e) {
        return false;
      }
    }
  }

  @TrestleTest
  static class A {
    @Test
    void port(Trestle trestle) {
      PORTS.add(trestle.port());
    }
  }

  @TrestleTest(reset = Reset.NEVER)
  static class B {
    @Test
    void port(Trestle trestle) {
      PORTS.add(trestle.port());
    }
  }

  @TrestleTest
  static class C {
    @Test
    void port(Trestle trestle) {
      PORTS.add(trestle.port());
    }
  }

  /** Registered in code with the same settings as the annotation's defaults. */
  static class D {
    @org.junit.jupiter.api.extension.RegisterExtension
    static TrestleExtension trestle = TrestleExtension.builder().reset(Reset.PER_TEST).build();

    @Test
    void port(Trestle trestle) {
      PORTS.add(trestle.port());
    }
  }

  static final String KEY = dev.trestle.server.TrestleServer.DEV_ACCOUNT_KEY;

  static class AlphaFirst {
    @org.junit.jupiter.api.extension.RegisterExtension
    static TrestleExtension trestle =
        TrestleExtension.builder().account("alpha", KEY).account("beta", KEY).build();

    @Test
    void defaultAccount(Trestle trestle) {
      assertThat(trestle.accountName()).isEqualTo("alpha");
      assertThat(trestle.endpoint("beta")).endsWith("/beta");
      PORTS.add(trestle.port());
    }
  }

  static class BetaFirst {
    @org.junit.jupiter.api.extension.RegisterExtension
    static TrestleExtension trestle =
        TrestleExtension.builder().account("beta", KEY).account("alpha", KEY).build();

    @Test
    void defaultAccount(Trestle trestle) {
      assertThat(trestle.accountName()).isEqualTo("beta");
      PORTS.add(trestle.port());
    }
  }

  @TrestleTest(jdbcUrl = "jdbc:h2:mem:sharing-test-other;DB_CLOSE_DELAY=-1")
  static class OtherDatabase {
    @Test
    void port(Trestle trestle) {
      PORTS.add(trestle.port());
    }
  }
}
