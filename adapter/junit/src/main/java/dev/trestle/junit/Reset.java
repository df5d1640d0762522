package dev.trestle.junit;

/**
 * When the extension empties the server: it deletes every table of every account it serves (with
 * their entities and access policies) and restores the default service properties (no CORS rules).
 * It takes milliseconds when there is little to delete.
 */
public enum Reset {
  /** Never: what one test or class writes, the next finds, for as long as the server runs. */
  NEVER,
  /**
   * Before each top-level test class (the default): a class starts empty, as with a new emulator
   * container per class, and its tests (and {@code @Nested} classes) share what they write. Data
   * seeded in {@code @BeforeAll} is kept.
   */
  PER_CLASS,
  /**
   * Before each test method, after the class's {@code @BeforeAll} and before its {@code BeforeEach}
   * methods: every test starts empty, so seed data in {@code @BeforeEach}.
   */
  PER_TEST
}
