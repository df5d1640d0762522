package dev.trestle.cli.transfer;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 stream, each decoded strictly: a line whose bytes are not UTF-8 comes back
 * as {@link #NOT_UTF8}, so that its number can be named (a lenient reader turns such bytes into
 * U+FFFD and stores them without a word). Ends at {@code \n}, {@code \r\n} or the stream's end; a
 * byte order mark before the first line is skipped, as Windows tools write one.
 */
final class Utf8Lines implements Closeable {
  /** What {@link #next} answers for a line that is not UTF-8; compare by identity. */
  static final String NOT_UTF8 = new String("<not UTF-8>");

  private final InputStream in;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private byte[] line = new byte[256];
  private boolean first = true;

  Utf8Lines(InputStream in) {
    this.in = in;
  }

  /** The next line without its end, {@link #NOT_UTF8}, or null at the end of the stream. */
  String next() throws IOException {
    int length = 0;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          return any ? decode(length) : null;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int chunk = position - start;
      if (length + chunk > line.length) {
        line = Arrays.copyOf(line, Math.max(line.length * 2, length + chunk));
      }
      System.arraycopy(buffer, start, line, length, chunk);
      length += chunk;
      if (position < limit) {
        position++; // the '\n'
        return decode(length > 0 && line[length - 1] == '\r' ? length - 1 : length);
      }
    }
  }

  private String decode(int length) {
    int offset = 0;
    if (first) {
      first = false;
      if (length >= 3
          && line[0] == (byte) 0xEF
          && line[1] == (byte) 0xBB
          && line[2] == (byte) 0xBF) {
        offset = 3;
      }
    }
    try {
      return decoder.decode(ByteBuffer.wrap(line, offset, length - offset)).toString();
    } catch (CharacterCodingException e) {
      return NOT_UTF8;
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
