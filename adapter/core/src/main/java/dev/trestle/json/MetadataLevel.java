package dev.trestle.json;

import java.util.Locale;

/** The OData JSON flavours; which annotations an entity carries. */
public enum MetadataLevel {
  NONE("nometadata"),
  MINIMAL("minimalmetadata"),
  FULL("fullmetadata");

  private final String parameter;

  MetadataLevel(String parameter) {
    this.parameter = parameter;
  }

  /** The Content-Type of a JSON response at this level. */
  public String contentType() {
    return "application/json;odata=" + parameter + ";streaming=true;charset=utf-8";
  }

  /**
   * The level asked for by {@code $format} (wins when present) or {@code Accept}. Anything else,
   * including a missing header or plain {@code application/json}, gets minimal metadata: the SDKs
   * always ask for JSON.
   */
  public static MetadataLevel negotiate(String format, String accept) {
    String source = format != null ? format : accept;
    if (source == null) {
      return MINIMAL;
    }
    String lower = source.toLowerCase(Locale.ROOT);
    if (lower.contains("odata=nometadata")) {
      return NONE;
    }
    if (lower.contains("odata=fullmetadata")) {
      return FULL;
    }
    return MINIMAL;
  }
}
