package dev.trestle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void runsOnJava21OrLater() {
    assertThat(Runtime.version().feature()).isGreaterThanOrEqualTo(21);
  }
}
