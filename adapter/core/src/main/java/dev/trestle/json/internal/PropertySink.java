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
   * One property whose wire text is a run of characters the sink may read only during the call: a
   * stored value whose text the response shows as it is.
   */
  default void text(String name, EdmType type, char[] text, int offset, int length)
      throws IOException {
    property(name, type, new String(text, offset, length));
  }
}
