package dev.trestle;

import java.util.List;
import java.util.Optional;

/** One page of a query; {@code next} is present when more matching entities may remain. */
public record EntityPage(List<TableEntity> entities, Optional<EntityQuery.Continuation> next) {
  /** Copies the list. */
  public EntityPage {
    entities = List.copyOf(entities);
  }
}
