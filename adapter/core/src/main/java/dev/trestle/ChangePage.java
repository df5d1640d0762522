package dev.trestle;

import java.util.List;

/**
 * Changes of a {@link ChangeFeed} in order, and the token to read on from ({@code next}: the last
 * change's position, or the token read from when there was none).
 */
public record ChangePage(List<TableChange> changes, String next) {
  public ChangePage {
    changes = List.copyOf(changes);
  }
}
