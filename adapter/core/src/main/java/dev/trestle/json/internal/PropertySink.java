package dev.trestle.json.internal;

import dev.trestle.EdmType;
import java.io.IOException;

/** Takes an entity's properties one at a time, in order, each as its type and wire text. */
@FunctionalInterface
public interface PropertySink {
  /**
   * One property; {@code wire} is its value as the response shows it ({@link PropertyJson#wire}).
   */
  void property(String name, EdmType type, String wire) throws IOException;

  /**
   * A string property whose value is a run of characters the sink may read only during the call.
   */
  default void string(String name, char[] text, int offset, int length) throws IOException {
    property(name, EdmType.STRING, new String(text, offset, length));
  }
}
