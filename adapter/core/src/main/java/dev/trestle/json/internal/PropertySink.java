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
}
