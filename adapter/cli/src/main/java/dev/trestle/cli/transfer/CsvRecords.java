package dev.trestle.cli.transfer;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 4180 records: fields separated by commas, quoted when they hold a comma, a quote or a line
 * break (a quote doubled inside), records ended by CRLF (LF or CR alone read too).
 */
final class CsvRecords {
  private final Reader in;
  private int pushedBack = -2;

  CsvRecords(Reader in) {
    this.in = in;
  }

  /** The next record's fields; null at the end. */
  List<String> next() throws IOException {
    int c = read();
    if (c == -1) {
      return null;
    }
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    while (true) {
      if (c == '"' && field.isEmpty()) {
        c = quoted(field);
      }
      if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else if (c == '\n' || c == -1) {
        fields.add(field.toString());
        return fields;
      } else if (c == '\r') {
        int after = read();
        if (after != '\n') {
          pushedBack = after;
        }
        fields.add(field.toString());
        return fields;
      } else {
        field.append((char) c);
      }
      c = read();
    }
  }

  /** Reads a quoted field's content into {@code field}; answers the character after it. */
  private int quoted(StringBuilder field) throws IOException {
    while (true) {
      int c = in.read();
      if (c == -1) {
        throw new IOException("a quoted field is not closed");
      }
      if (c == '"') {
        int after = in.read();
        if (after != '"') {
          return after;
        }
      }
      field.append((char) c);
    }
  }

  private int read() throws IOException {
    if (pushedBack != -2) {
      int c = pushedBack;
      pushedBack = -2;
      return c;
    }
    return in.read();
  }

  static void write(Writer out, List<String> fields) throws IOException {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      String field = fields.get(i);
      if (needsQuotes(field)) {
        out.write('"');
        out.write(field.replace("\"", "\"\""));
        out.write('"');
      } else {
        out.write(field);
      }
    }
    out.write("\r\n");
  }

  private static boolean needsQuotes(String field) {
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }
}
