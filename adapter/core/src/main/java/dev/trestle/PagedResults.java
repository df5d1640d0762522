package dev.trestle;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every result of a query, read a page at a time as iteration reaches it: the Azure SDK's {@code
 * PagedIterable}. Nothing is read until iteration starts; a stream that stops early (e.g. {@code
 * findFirst()}, {@code limit(n)}) reads only the pages it needed. Each iteration runs the query
 * anew from its first page.
 *
 * <p>Each page is read in a transaction of its own and the next one resumes after the last key of
 * the previous page, as the Table service pages: an entity written meanwhile appears or not
 * depending on where it falls, and none appears twice. A query's {@code top} is the page size, not
 * a limit on the whole (as in the Azure SDKs); limit a stream for that. Errors ({@code
 * TableNotFound}, {@code InvalidInput} for a bad filter, ...) are thrown by the iteration that
 * reads the page, as {@link TableException}.
 *
 * @param <T> what the query returns: {@link TableEntity} or {@link TableInfo}
 */
public final class PagedResults<T> implements Iterable<T> {
  private final Supplier<Iterator<List<T>>> pages;

  private PagedResults(Supplier<Iterator<List<T>>> pages) {
    this.pages = pages;
  }

  static PagedResults<TableEntity> entities(TableClient table, EntityQuery query) {
    return new PagedResults<>(
        () ->
            new PageIterator<>(
                query,
                table::query,
                EntityPage::entities,
                (q, page) -> page.next().map(q::withContinuation)));
  }

  static PagedResults<TableInfo> tables(TableService service, TableQuery query) {
    return new PagedResults<>(
        () ->
            new PageIterator<>(
                query,
                service::queryTables,
                TablePage::tables,
                (q, page) ->
                    page.nextTableName().map(n -> new TableQuery(q.filter(), q.top(), n))));
  }

  /** The results one by one, reading the next page when the current one is used up. */
  @Override
  public Iterator<T> iterator() {
    Iterator<List<T>> source = pages.get();
    return new Iterator<>() {
      private Iterator<T> page = List.<T>of().iterator();

      @Override
      public boolean hasNext() {
        while (!page.hasNext() && source.hasNext()) {
          page = source.next().iterator();
        }
        return page.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return page.next();
      }
    };
  }

  /** The results as an ordered, sequential stream, read lazily. */
  public Stream<T> stream() {
    return StreamSupport.stream(
        () -> Spliterators.spliteratorUnknownSize(iterator(), CHARACTERISTICS),
        CHARACTERISTICS,
        false);
  }

  /**
   * The results page by page, each a list of at most the query's {@code top} (else 1,000) items.
   * Pages the service returned empty (a page may end early at its time limit) are skipped, so every
   * page holds at least one item and an empty result has no page.
   */
  public Iterable<List<T>> iterableByPage() {
    return pages::get;
  }

  /** {@link #iterableByPage()} as a stream, read lazily. */
  public Stream<List<T>> streamByPage() {
    return StreamSupport.stream(
        () -> Spliterators.spliteratorUnknownSize(pages.get(), CHARACTERISTICS),
        CHARACTERISTICS,
        false);
  }

  private static final int CHARACTERISTICS = Spliterator.ORDERED | Spliterator.NONNULL;

  /**
   * Reads one page per {@link #next()}, following the continuation each page returns.
   *
   * @param <Q> the query type, which carries the continuation
   * @param <P> the page type
   */
  private static final class PageIterator<Q, P, T> implements Iterator<List<T>> {
    private final Function<Q, P> read;
    private final Function<P, List<T>> items;
    private final BiFunction<Q, P, Optional<Q>> following;
    private Q nextQuery;
    private List<T> buffered;

    PageIterator(
        Q first,
        Function<Q, P> read,
        Function<P, List<T>> items,
        BiFunction<Q, P, Optional<Q>> following) {
      this.nextQuery = first;
      this.read = read;
      this.items = items;
      this.following = following;
    }

    @Override
    public boolean hasNext() {
      while (buffered == null && nextQuery != null) {
        Q query = nextQuery;
        P page = read.apply(query);
        nextQuery = following.apply(query, page).orElse(null);
        List<T> pageItems = items.apply(page);
        if (!pageItems.isEmpty()) {
          buffered = pageItems;
        }
      }
      return buffered != null;
    }

    @Override
    public List<T> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      List<T> page = buffered;
      buffered = null;
      return page;
    }
  }
}
