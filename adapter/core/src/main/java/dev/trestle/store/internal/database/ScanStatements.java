package dev.trestle.store.internal.database;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The SQL text of query pages, and of the planner's estimates they ask for, by shape ({@link
 * ScanShape}), rendered once: jOOQ's rendering of a page's statement cost about a tenth of a
 * partition scan's CPU, and a third of an indexed lookup's. Bounded: filters can take unboundedly
 * many shapes, and past {@link #MAX_SHAPES} the map starts again.
 */
public final class ScanStatements {
  /** A shape whose statement cannot be bound from its shape's values: rendered per query. */
  public static final String PER_QUERY = "";

  private static final int MAX_SHAPES = 256;

  private final ConcurrentMap<String, String> texts = new ConcurrentHashMap<>();

  /** The text for the shape, rendered (or found {@link #PER_QUERY}) by {@code render} once. */
  public String text(String shape, Supplier<String> render) {
    String text = texts.get(shape);
    if (text == null) {
      text = render.get();
      if (texts.size() >= MAX_SHAPES) {
        texts.clear();
      }
      texts.put(shape, text);
    }
    return text;
  }

  /** The texts rendered so far, by shape. */
  public Map<String, String> rendered() {
    return Map.copyOf(texts);
  }
}
