package dev.trestle.store.internal.database;

import dev.trestle.EntityPage;
import dev.trestle.EntityQuery.Continuation;
import dev.trestle.TableEntity;
import dev.trestle.json.internal.EntityRowPage;
import dev.trestle.store.internal.codec.StoredEntity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One page of a query as read, its entities not yet decoded; {@code next} is present when more
 * matching entities may remain.
 */
public record StoredPage(List<StoredEntity> entities, Optional<Continuation> next) {

  /** A page that ends after the last entity read or walked. */
  public StoredPage(List<StoredEntity> entities, Continuation next) {
    this(entities, Optional.of(next));
  }

  /** The page as the library returns it, with the properties named in {@code select}. */
  public EntityPage toEntityPage(Collection<String> select) {
    List<TableEntity> decoded = new ArrayList<>(entities.size());
    for (StoredEntity entity : entities) {
      decoded.add(entity.toEntity(select));
    }
    return new EntityPage(decoded, next);
  }

  /** The page as rows a response writes from their stored form. */
  public EntityRowPage toRowPage() {
    return new EntityRowPage(entities, next);
  }
}
