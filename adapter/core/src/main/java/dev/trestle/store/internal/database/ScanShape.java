package dev.trestle.store.internal.database;

import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;

/**
 * The shape of a scan: a text that names everything of its statement but the values it binds, and
 * those values, per part, in the order each part binds them. Scans of one shape render one SQL
 * text, so a page's statement is rendered once per shape ({@link ScanStatements}) and only its
 * values are bound per query. {@code resume} is the very condition the page is read after (null:
 * from the start).
 */
public record ScanShape(
    String key,
    List<Object> filterBinds,
    List<Object> keyRangeBinds,
    List<Object> candidateBinds,
    Condition resume,
    List<Object> resumeBinds) {

  /**
   * The shape of a scan whose filter compares only the keys, named without rendering anything: the
   * structure of the filter, the granted key range and the resume point. Its filter is its key
   * range, with no time-to-live test and no candidates.
   */
  public static ScanShape ofKeys(
      String key, List<Object> filterBinds, Condition resume, List<Object> resumeBinds) {
    return new ScanShape(key, filterBinds, filterBinds, List.of(), resume, resumeBinds);
  }

  /**
   * The binds of a statement in the order given: each character of {@code order} is 'f' (the
   * filter's values), 'k' (the key range's), 'c' (the candidates'), 't' (the table id) or 'r' (the
   * resume point's).
   */
  public List<Object> binds(String order, long tableId) {
    List<Object> binds = new ArrayList<>();
    for (int i = 0; i < order.length(); i++) {
      switch (order.charAt(i)) {
        case 'f' -> binds.addAll(filterBinds);
        case 'k' -> binds.addAll(keyRangeBinds);
        case 'c' -> binds.addAll(candidateBinds);
        case 't' -> binds.add(tableId);
        case 'r' -> binds.addAll(resumeBinds);
        default -> throw new IllegalArgumentException(order);
      }
    }
    return binds;
  }
}
