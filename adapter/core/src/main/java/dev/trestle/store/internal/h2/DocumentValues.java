package dev.trestle.store.internal.h2;

import java.util.Arrays;

/**
 * The stored values of the properties a filter reads, found in one pass over a document ({@code
 * {"name":[tag,value,position],...}}) as it is, each value a slice of it: no parser, no copy of the
 * document, no String per value (a JSON parser per comparison was most of a filter scan's CPU on
 * H2). A document it does not read plainly (an escape in a name or in a wanted value, an unexpected
 * token) is read by {@link H2Functions#find}, per property, as before: the result is the same. One
 * per thread, reused row after row.
 */
final class DocumentValues {
  /** The one-letter tags as Strings, so that a row's tags cost no String. */
  private static final String[] ASCII = new String[128];

  static {
    for (char c = 0; c < ASCII.length; c++) {
      ASCII[c] = String.valueOf(c);
    }
  }

  private static final String[] WORDS = {"true", "false", "null"};

  private String[] properties = new String[0];
  private String[] tags = new String[0];
  private String[] texts = new String[0];
  private int[] starts = new int[0];
  private int[] ends = new int[0];

  /** Reads the values of {@code properties} (the slots) from the document. */
  void read(String document, String[] wanted) {
    if (properties != wanted) {
      properties = wanted;
      tags = new String[wanted.length];
      texts = new String[wanted.length];
      starts = new int[wanted.length];
      ends = new int[wanted.length];
    }
    Arrays.fill(tags, null);
    if (!scan(document)) {
      Arrays.fill(tags, null);
      for (int slot = 0; slot < wanted.length; slot++) {
        String[] stored = H2Functions.find(document, wanted[slot]);
        if (stored != null) {
          set(slot, stored[0], stored[1], 0, stored[1].length());
        }
      }
    }
  }

  /** The slot's type tag, null when the document does not have the property. */
  String tag(int slot) {
    return tags[slot];
  }

  /** The text the slot's value is a slice of. */
  String text(int slot) {
    return texts[slot];
  }

  int start(int slot) {
    return starts[slot];
  }

  int end(int slot) {
    return ends[slot];
  }

  private void set(int slot, String tag, String text, int start, int end) {
    tags[slot] = tag;
    texts[slot] = text;
    starts[slot] = start;
    ends[slot] = end;
  }

  /**
   * False when the document is not in the plain form, so that {@link H2Functions#find} reads it.
   */
  private boolean scan(String d) {
    int n = d.length();
    int missing = properties.length;
    int i = skipSpace(d, 0);
    if (i >= n || d.charAt(i) != '{') {
      return false;
    }
    i = skipSpace(d, i + 1);
    if (i < n && d.charAt(i) == '}') {
      return true;
    }
    while (missing > 0) {
      if (i >= n || d.charAt(i) != '"') {
        return false;
      }
      int nameEnd = d.indexOf('"', i + 1);
      if (nameEnd < 0 || d.indexOf('\\', i + 1, nameEnd) >= 0) {
        return false; // an escaped name: compared as Jackson unescapes it
      }
      int slot = slotOf(d, i + 1, nameEnd);
      i = skipSpace(d, nameEnd + 1);
      if (i >= n || d.charAt(i) != ':') {
        return false;
      }
      i = skipSpace(d, i + 1);
      if (slot < 0) {
        i = skipValue(d, i);
      } else {
        i = readValue(d, i, slot);
        missing--;
      }
      if (i < 0) {
        return false;
      }
      i = skipSpace(d, i);
      if (i >= n) {
        return false;
      }
      char c = d.charAt(i);
      if (c == '}') {
        return true;
      }
      if (c != ',') {
        return false;
      }
      i = skipSpace(d, i + 1);
    }
    return true;
  }

  /** The slot of a wanted property not yet found named by {@code d[start, end)}, else -1. */
  private int slotOf(String d, int start, int end) {
    int length = end - start;
    for (int slot = 0; slot < properties.length; slot++) {
      String name = properties[slot];
      if (tags[slot] == null
          && name.length() == length
          && d.regionMatches(start, name, 0, length)) {
        return slot;
      }
    }
    return -1;
  }

  /** Reads {@code ["t", value, ...]} into the slot; the index after it, or -1. */
  private int readValue(String d, int i, int slot) {
    int n = d.length();
    if (i >= n || d.charAt(i) != '[') {
      return -1;
    }
    i = skipSpace(d, i + 1);
    if (i >= n || d.charAt(i) != '"') {
      return -1;
    }
    int tagEnd = d.indexOf('"', i + 1);
    if (tagEnd != i + 2 || d.charAt(i + 1) == '\\' || d.charAt(i + 1) >= ASCII.length) {
      return -1;
    }
    String tag = ASCII[d.charAt(i + 1)];
    i = skipSpace(d, tagEnd + 1);
    if (i >= n || d.charAt(i) != ',') {
      return -1;
    }
    i = skipSpace(d, i + 1);
    if (i >= n) {
      return -1;
    }
    int start;
    int end;
    if (d.charAt(i) == '"') {
      start = i + 1;
      end = d.indexOf('"', start);
      if (end < 0 || d.indexOf('\\', start, end) >= 0) {
        return -1; // escapes: Jackson unescapes them
      }
      i = end + 1;
    } else {
      start = i;
      end = scalarEnd(d, i);
      if (end < 0) {
        return -1;
      }
      i = end;
    }
    set(slot, tag, d, start, end);
    return skipValue(d, i, 1);
  }

  /**
   * The end of a JSON number, {@code true}, {@code false} or {@code null} starting at {@code i}
   * (its text is what Jackson's getText gives), or -1 for anything else.
   */
  private static int scalarEnd(String d, int i) {
    int n = d.length();
    for (String word : WORDS) {
      if (d.startsWith(word, i)) {
        int end = i + word.length();
        return end == n || isDelimiter(d.charAt(end)) ? end : -1;
      }
    }
    int j = i;
    if (j < n && d.charAt(j) == '-') {
      j++;
    }
    int digits = j;
    while (j < n && d.charAt(j) >= '0' && d.charAt(j) <= '9') {
      j++;
    }
    // integers only, without leading zeros (as JSON has them); fractions and exponents fall back
    if (j == digits || (d.charAt(digits) == '0' && j - digits > 1)) {
      return -1;
    }
    return j == n || isDelimiter(d.charAt(j)) ? j : -1;
  }

  private static boolean isDelimiter(char c) {
    return c == ',' || c == ']' || c == '}' || isSpace(c);
  }

  /** The index of the ',' or '}' after the value at {@code i}, or -1. */
  private static int skipValue(String d, int i) {
    return skipValue(d, i, 0);
  }

  /**
   * Skips to the ',' or '}' that ends a member, {@code depth} levels of arrays or objects inside
   * it; -1 when the document ends first.
   */
  private static int skipValue(String d, int i, int depth) {
    int n = d.length();
    while (i < n) {
      char c = d.charAt(i);
      switch (c) {
        case '"' -> {
          i = stringEnd(d, i + 1);
          if (i < 0) {
            return -1;
          }
        }
        case '[', '{' -> depth++;
        case ']' -> depth--;
        case '}' -> {
          if (depth == 0) {
            return i;
          }
          depth--;
        }
        case ',' -> {
          if (depth == 0) {
            return i;
          }
        }
        default -> {}
      }
      if (depth < 0) {
        return -1;
      }
      i++;
    }
    return -1;
  }

  /** The index of the quote that closes a string whose text starts at {@code i}, or -1. */
  private static int stringEnd(String d, int i) {
    while (true) {
      int quote = d.indexOf('"', i);
      if (quote < 0) {
        return -1;
      }
      int backslashes = 0;
      while (d.charAt(quote - 1 - backslashes) == '\\') {
        backslashes++;
      }
      if (backslashes % 2 == 0) {
        return quote;
      }
      i = quote + 1;
    }
  }

  private static int skipSpace(String d, int i) {
    while (i < d.length() && isSpace(d.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
}
