package dev.trestle.json.internal;

import dev.trestle.EdmType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Takes an entity's properties one at a time, in order, each as its type and wire text. */
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

  /**
   * One property whose wire text is a run of UTF-8 bytes the sink may read only during the call, as
   * {@link #text}; the bytes hold no JSON escape and no control character.
   */
  default void utf8(String name, EdmType type, byte[] text, int offset, int length)
      throws IOException {
    property(name, type, new String(text, offset, length, StandardCharsets.UTF_8));
  }
}
