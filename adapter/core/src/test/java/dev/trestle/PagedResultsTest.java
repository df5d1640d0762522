package dev.trestle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How pages are followed, on scripted pages; {@code store.ListEntitiesTest} runs real queries. */
class PagedResultsTest {

  /** A table answering each query with the scripted page its continuation names, recorded. */
  private static final class ScriptedTable {
    final List<EntityQuery> queries = new ArrayList<>();
    final TableClient client;

    ScriptedTable(List<List<String>> pageRowKeys) {
      InvocationHandler handler =
          (proxy, method, args) -> {
            if (method.isDefault()) {
              return InvocationHandler.invokeDefault(proxy, method, args);
            }
            if (!method.getName().equals("query")) {
              throw new UnsupportedOperationException(method.getName());
            }
            EntityQuery query = (EntityQuery) args[0];
            queries.add(query);
            int index =
                query.continuation() == null
                    ? 0
                    : Integer.parseInt(query.continuation().nextRowKey().substring(6)) + 1;
            List<TableEntity> entities =
                pageRowKeys.get(index).stream()
                    .map(rowKey -> TableEntity.builder("p", rowKey).build())
                    .toList();
            Optional<EntityQuery.Continuation> next =
                index + 1 < pageRowKeys.size()
                    ? Optional.of(new EntityQuery.Continuation("p", "after-" + index))
                    : Optional.empty();
            return new EntityPage(entities, next);
          };
      client =
          (TableClient)
              Proxy.newProxyInstance(
                  TableClient.class.getClassLoader(), new Class<?>[] {TableClient.class}, handler);
    }
  }

  private static List<String> rowKeys(Iterable<TableEntity> entities) {
    List<String> keys = new ArrayList<>();
    entities.forEach(e -> keys.add(e.rowKey()));
    return keys;
  }

  @Test
  void followsEachContinuationKeepingTheRestOfTheQuery() {
    ScriptedTable table = new ScriptedTable(List.of(List.of("a", "b"), List.of("c"), List.of("d")));
    EntityQuery query = EntityQuery.filter("X eq 1").withTop(2).withSelect(List.of("X"));

    assertThat(rowKeys(table.client.listEntities(query))).containsExactly("a", "b", "c", "d");

    assertThat(table.queries)
        .containsExactly(
            query,
            query.withContinuation(new EntityQuery.Continuation("p", "after-0")),
            query.withContinuation(new EntityQuery.Continuation("p", "after-1")));
  }

  @Test
  void readsNothingUntilIterationStartsAndOnlyThePagesItReaches() {
    ScriptedTable table = new ScriptedTable(List.of(List.of("a", "b"), List.of("c", "d")));
    PagedResults<TableEntity> results = table.client.listEntities();
    var stream = results.stream().map(TableEntity::rowKey);
    assertThat(table.queries).isEmpty();

    assertThat(stream.limit(2).toList()).containsExactly("a", "b");
    assertThat(table.queries).hasSize(1);
  }

  @Test
  void emptyPagesAreSkippedAndEveryPageHoldsAnItem() {
    ScriptedTable table =
        new ScriptedTable(
            List.of(List.of(), List.of("a"), List.of(), List.of("b", "c"), List.of()));
    PagedResults<TableEntity> results = table.client.listEntities();

    assertThat(results.streamByPage().map(PagedResultsTest::rowKeys).toList())
        .containsExactly(List.of("a"), List.of("b", "c"));
    assertThat(rowKeys(results)).containsExactly("a", "b", "c");
  }

  @Test
  void anEmptyResultHasNoItemAndNoPage() {
    ScriptedTable table = new ScriptedTable(List.of(List.of(), List.of()));
    assertThat(table.client.listEntities().iterableByPage()).isEmpty();
    assertThat(table.client.listEntities().stream()).isEmpty();
    Iterator<TableEntity> iterator = table.client.listEntities().iterator();
    assertThatThrownBy(iterator::next).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void eachIterationRunsTheQueryAnew() {
    ScriptedTable table = new ScriptedTable(List.of(List.of("a"), List.of("a")));
    PagedResults<TableEntity> results = table.client.listEntities(EntityQuery.all().withTop(1));
    assertThat(results.iterator().next().rowKey()).isEqualTo("a");
    assertThat(results.iterator().next().rowKey()).isEqualTo("a");
    assertThat(table.queries).containsOnly(EntityQuery.all().withTop(1));
  }
}
