package dev.trestle.json.internal;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery;
import java.util.List;
import java.util.Optional;

/** One page of a query as rows; {@code next} is present when more matching entities may remain. */
public record EntityRowPage(
    List<? extends EntityRow> entities, Optional<EntityQuery.Continuation> next) {

  /** A page of decoded entities, as rows. */
  public static EntityRowPage of(EntityPage page) {
    return new EntityRowPage(page.entities().stream().map(EntityRow::of).toList(), page.next());
  }
}
