package dev.trestle.store.internal.codec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The scalar document of a stored properties document ({@link PropertyCodec}), as PostgreSQL's
 * {@code trestle_scalars(properties)} (migrations/optional/postgresql-scalar-store.sql, the
 * definition's one home) computes it: for each property {@code "Name": [tag, value, position]} the
 * key {@code tag + Name} with the stored value unchanged, except a String or Binary whose stored
 * text is longer than {@value #MAX_COPIED} characters, which becomes JSON {@code true}: a marker
 * that the value was too large to copy.
 *
 * <p>Computed by hand in one pass over the document's text or UTF-8 bytes, names and values copied
 * as their JSON text (escapes included; jsonb reads them back to the same values), so that a write
 * costs no parse into a tree. Lengths count code points, as PostgreSQL's {@code length()} does: the
 * stored text of a character from U+E800 up is a supplementary character (UnitOrderText), two Java
 * chars but one PostgreSQL character.
 *
 * <p>The same pass computes the row's signature ({@link #stringBits}): two bits of 64 for each
 * String value copied, so that a filter's equality on a String tests one {@code bigint} before it
 * looks into the document (a Bloom filter: a row whose signature lacks the bits cannot match).
 */
public final class ScalarDocument {
  /** The longest String or Binary stored text copied into the scalar document. */
  public static final int MAX_COPIED = 64;

  /** The scalar document of an entity without properties. */
  public static final String EMPTY = "{}";

  private ScalarDocument() {}

  /** A scalar row's values: its scalar document and its signature. */
  public record ScalarRow(String document, long signature) {}

  private static final ThreadLocal<MessageDigest> MD5 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("every Java platform has MD5", e);
            }
          });

  /** The scalar document of a stored properties document. */
  public static String of(String properties) {
    return row(properties).document();
  }

  /** The scalar row of a stored properties document. */
  public static ScalarRow row(String properties) {
    return scan(new CharSource(properties));
  }

  /** The same from the document's UTF-8 bytes, as PostgreSQL sends a row. */
  public static String of(byte[] utf8) {
    return row(utf8).document();
  }

  /** The scalar row from the document's UTF-8 bytes. */
  public static ScalarRow row(byte[] utf8) {
    return scan(new ByteSource(utf8));
  }

  /**
   * The bits a String value of {@value #MAX_COPIED} characters or fewer sets in its row's
   * signature: two of 64, numbered by the first two bytes (each modulo 64) of the MD5 of the UTF-8
   * of the property's name, U+0001 and the value's stored text, as PostgreSQL's {@code
   * trestle_string_signature(properties)} (migrations/postgresql/V9__scalar_signatures.sql, the
   * definition's one home) computes them. Longer values set none.
   */
  public static long stringBits(String name, String storedText) {
    MessageDigest md5 = MD5.get();
    md5.update((name + '\u0001' + storedText).getBytes(StandardCharsets.UTF_8));
    byte[] hash = md5.digest();
    return (1L << (hash[0] & 63)) | (1L << (hash[1] & 63));
  }

  private static ScalarRow scan(Source s) {
    int n = s.length();
    int i = s.skipSpace(0);
    s.expect(i, '{');
    i = s.skipSpace(i + 1);
    if (i < n && s.at(i) == '}') {
      s.expectEnd(i + 1);
      return new ScalarRow(EMPTY, 0);
    }
    long signature = 0;
    StringBuilder out = new StringBuilder(n);
    out.append('{');
    while (true) {
      s.expect(i, '"');
      int nameStart = i + 1;
      int nameEnd = s.stringEnd(nameStart);
      i = s.skipSpace(nameEnd + 1);
      s.expect(i, ':');
      i = s.skipSpace(i + 1);
      s.expect(i, '[');
      i = s.skipSpace(i + 1);
      s.expect(i, '"');
      int tagEnd = s.stringEnd(i + 1);
      int tag = s.at(i + 1);
      if (tagEnd != i + 2 || StoredType.ofTag((char) tag) == null) {
        throw new MalformedRowException("a property's type tag is not one of s i l d b t g x");
      }
      i = s.skipSpace(tagEnd + 1);
      s.expect(i, ',');
      int valueStart = s.skipSpace(i + 1);
      int valueEnd = s.valueEnd(valueStart);
      boolean marker =
          (tag == 's' || tag == 'x')
              && s.at(valueStart) == '"'
              && s.longerThan(valueStart + 1, valueEnd - 1, MAX_COPIED);
      i = s.skipSpace(valueEnd);
      while (i < n && s.at(i) == ',') {
        i = s.skipSpace(s.valueEnd(s.skipSpace(i + 1)));
      }
      s.expect(i, ']');
      if (out.length() > 1) {
        out.append(',');
      }
      out.append('"').append((char) tag);
      s.copy(nameStart, nameEnd, out);
      out.append("\":");
      if (marker) {
        out.append("true");
      } else {
        s.copy(valueStart, valueEnd, out);
        if (tag == 's') {
          signature |=
              stringBits(s.decoded(nameStart, nameEnd), s.decoded(valueStart + 1, valueEnd - 1));
        }
      }
      i = s.skipSpace(i + 1);
      if (i < n && s.at(i) == '}') {
        s.expectEnd(i + 1);
        return new ScalarRow(out.append('}').toString(), signature);
      }
      s.expect(i, ',');
      i = s.skipSpace(i + 1);
    }
  }

  /** The document as units (chars or bytes) with the few operations the scan needs. */
  private abstract static class Source {
    abstract int length();

    /** The unit at i; -1 past the end. */
    abstract int at(int i);

    /** Whether the unit at i starts a character (is not the tail of one). */
    abstract boolean startsCharacter(int i);

    abstract void copy(int from, int to, StringBuilder out);

    final int skipSpace(int i) {
      int n = length();
      while (i < n) {
        int c = at(i);
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
          break;
        }
        i++;
      }
      return i;
    }

    final void expect(int i, char c) {
      if (at(i) != c) {
        throw new MalformedRowException(
            "its properties are not in Trestle's format: expected '" + c + "' at " + i);
      }
    }

    final void expectEnd(int i) {
      if (skipSpace(i) != length()) {
        throw new MalformedRowException("its properties are followed by more text");
      }
    }

    /** The index of the quote that closes the string whose text starts at i. */
    final int stringEnd(int i) {
      int n = length();
      while (i < n) {
        int c = at(i);
        if (c == '"') {
          return i;
        }
        i += c == '\\' ? 2 : 1;
      }
      throw new MalformedRowException("its properties hold an unterminated string");
    }

    /** The end (exclusive) of the JSON value starting at i. */
    final int valueEnd(int i) {
      int n = length();
      int c = at(i);
      if (c == '"') {
        return stringEnd(i + 1) + 1;
      }
      if (c == '[' || c == '{') {
        int depth = 0;
        while (i < n) {
          c = at(i);
          if (c == '"') {
            i = stringEnd(i + 1);
          } else if (c == '[' || c == '{') {
            depth++;
          } else if ((c == ']' || c == '}') && --depth == 0) {
            return i + 1;
          }
          i++;
        }
        throw new MalformedRowException("its properties hold an unterminated value");
      }
      int start = i;
      while (i < n) {
        c = at(i);
        if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
          break;
        }
        i++;
      }
      if (i == start) {
        throw new MalformedRowException("its properties hold a property without a value");
      }
      return i;
    }

    /**
     * Whether the JSON string text in [from, to) decodes to more than {@code max} characters (code
     * points); an escaped surrogate pair is one.
     */
    final boolean longerThan(int from, int to, int max) {
      if (to - from <= max) {
        return false; // every character takes at least one unit
      }
      int count = 0;
      for (int i = from; i < to; ) {
        int c = at(i);
        if (c == '\\') {
          if (at(i + 1) == 'u') {
            int unit = Integer.parseInt(text(i + 2, i + 6), 16);
            if (!Character.isLowSurrogate((char) unit)) {
              count++;
            }
            i += 6;
          } else {
            count++;
            i += 2;
          }
        } else {
          if (startsCharacter(i)) {
            count++;
          }
          i++;
        }
        if (count > max) {
          return true;
        }
      }
      return false;
    }

    /** The four hex digits of a \\u escape at {@code from}. */
    private static int hex(String raw, int from) {
      try {
        return Integer.parseInt(raw, from, from + 4, 16);
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        throw new MalformedRowException("its properties hold a malformed \\u escape");
      }
    }

    /** The text of the JSON string whose units, between its quotes, are [from, to). */
    final String decoded(int from, int to) {
      String raw = text(from, to);
      if (raw.indexOf('\\') < 0) {
        return raw;
      }
      StringBuilder out = new StringBuilder(raw.length());
      for (int i = 0; i < raw.length(); i++) {
        char c = raw.charAt(i);
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char escaped = raw.charAt(++i);
        switch (escaped) {
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            out.append((char) hex(raw, i + 1));
            i += 4;
          }
          default -> out.append(escaped); // " \ /
        }
      }
      return out.toString();
    }

    private String text(int from, int to) {
      StringBuilder out = new StringBuilder(to - from);
      copy(from, to, out);
      return out.toString();
    }
  }

  private static final class CharSource extends Source {
    private final String text;

    CharSource(String text) {
      this.text = text;
    }

    @Override
    int length() {
      return text.length();
    }

    @Override
    int at(int i) {
      return i < text.length() ? text.charAt(i) : -1;
    }

    @Override
    boolean startsCharacter(int i) {
      return !(Character.isLowSurrogate(text.charAt(i))
          && i > 0
          && Character.isHighSurrogate(text.charAt(i - 1)));
    }

    @Override
    void copy(int from, int to, StringBuilder out) {
      out.append(text, from, to);
    }
  }

  private static final class ByteSource extends Source {
    private final byte[] utf8;

    ByteSource(byte[] utf8) {
      this.utf8 = utf8;
    }

    @Override
    int length() {
      return utf8.length;
    }

    @Override
    int at(int i) {
      return i < utf8.length ? utf8[i] & 0xFF : -1;
    }

    @Override
    boolean startsCharacter(int i) {
      return (utf8[i] & 0xC0) != 0x80;
    }

    @Override
    void copy(int from, int to, StringBuilder out) {
      for (int i = from; i < to; i++) {
        if (utf8[i] < 0) {
          out.append(new String(utf8, i, to - i, StandardCharsets.UTF_8));
          return;
        }
        out.append((char) utf8[i]);
      }
    }
  }
}
