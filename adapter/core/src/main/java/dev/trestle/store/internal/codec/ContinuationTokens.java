package dev.trestle.store.internal.codec;

import dev.trestle.EntityQuery.Continuation;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.util.Base64;

/**
 * Opaque continuation values: a version prefix and the URL-safe base64 of the key's UTF-16 code
 * units (so any Java string survives, lone surrogates included). An entity token means "resume
 * after this key"; a table token names the first table of the next page. Garbage gives {@code
 * InvalidInput}.
 */
public final class ContinuationTokens {
  private static final String VERSION = "1!";

  private ContinuationTokens() {}

  /** The continuation that resumes strictly after the entity with these keys. */
  public static Continuation after(String partitionKey, String rowKey) {
    return new Continuation(encode(partitionKey), encode(rowKey));
  }

  /**
   * Where a continuation resumes: after (partitionKey, rowKey), or, when the row key is absent, at
   * the start of the partition (rowKey null), as the protocol allows.
   */
  public static ResumePoint decodeAfter(Continuation continuation) {
    if (continuation.nextPartitionKey() == null || continuation.nextPartitionKey().isEmpty()) {
      throw invalid();
    }
    String rowKey =
        continuation.nextRowKey() == null || continuation.nextRowKey().isEmpty()
            ? null
            : decode(continuation.nextRowKey());
    return new ResumePoint(decode(continuation.nextPartitionKey()), rowKey);
  }

  public record ResumePoint(String partitionKey, String rowKey) {}

  /** Any text as an opaque token part (the URL-safe alphabet, no '.'), e.g. a sort value. */
  public static String encodeText(String text) {
    return encode(text);
  }

  /** The text of {@link #encodeText}; {@code InvalidInput} for garbage. */
  public static String decodeText(String token) {
    return decode(token);
  }

  public static String encodeTableName(String name) {
    return encode(name);
  }

  public static String decodeTableName(String token) {
    return decode(token);
  }

  private static String encode(String key) {
    byte[] units = new byte[key.length() * 2];
    for (int i = 0; i < key.length(); i++) {
      units[2 * i] = (byte) (key.charAt(i) >> 8);
      units[2 * i + 1] = (byte) key.charAt(i);
    }
    return VERSION + Base64.getUrlEncoder().withoutPadding().encodeToString(units);
  }

  private static String decode(String token) {
    if (!token.startsWith(VERSION)) {
      throw invalid();
    }
    try {
      byte[] units = Base64.getUrlDecoder().decode(token.substring(VERSION.length()));
      if (units.length % 2 != 0) {
        throw invalid();
      }
      char[] chars = new char[units.length / 2];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = (char) (((units[2 * i] & 0xFF) << 8) | (units[2 * i + 1] & 0xFF));
      }
      return new String(chars);
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
  }

  private static TableException invalid() {
    return new TableException(TableErrorCode.INVALID_INPUT, "The continuation token is not valid.");
  }
}
