package dev.trestle.server.internal.http;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Percent-decoding of paths and query strings (UTF-8), strict: a broken escape is the client's
 * error.
 */
public final class PercentCodec {
  private PercentCodec() {}

  /** Decodes {@code %xx} escapes; {@code +} stays a plus sign (path rules). */
  public static String decodePath(String raw) {
    return decode(raw, false);
  }

  /** Decodes a query-string component; {@code +} means a space, as Azure's front end reads it. */
  static String decodeQuery(String raw) {
    return decode(raw, true);
  }

  /** Query parameters by name, each with all its decoded values, in order of appearance. */
  public static Map<String, List<String>> parseQuery(String rawQuery) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return params;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decodeQuery(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decodeQuery(pair.substring(eq + 1));
      params.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return params;
  }

  private static String decode(String raw, boolean plusIsSpace) {
    if (raw.indexOf('%') < 0 && !(plusIsSpace && raw.indexOf('+') >= 0)) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          throw badEscape(raw);
        }
        int hi = Character.digit(raw.charAt(i + 1), 16);
        int lo = Character.digit(raw.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw badEscape(raw);
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        bytes.write(' ');
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
          encoded = raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.writeBytes(encoded);
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw badEscape(raw);
    }
  }

  private static TableException badEscape(String raw) {
    return new TableException(TableErrorCode.INVALID_INPUT, "Bad Request - Error in query syntax.");
  }

  /** Percent-encodes a value for a URL path or query (RFC 3986 unreserved characters stay). */
  public static String encode(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%')
            .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return out.toString();
  }
}
