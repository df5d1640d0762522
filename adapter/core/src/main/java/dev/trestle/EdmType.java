package dev.trestle;

/** The eight property types of the Table data model, with their OData names. */
public enum EdmType {
  /** UTF-16 text, up to 32 K characters ({@code String}). */
  STRING("Edm.String"),
  /** A 32-bit signed integer ({@code int}). */
  INT32("Edm.Int32"),
  /** A 64-bit signed integer ({@code long}), a string in JSON so that no client loses precision. */
  INT64("Edm.Int64"),
  /** A 64-bit IEEE 754 floating-point number ({@code double}), NaN and the infinities included. */
  DOUBLE("Edm.Double"),
  /** {@code true} or {@code false}. */
  BOOLEAN("Edm.Boolean"),
  /** A UTC instant from 1601 to 9999 at 100 ns precision ({@link java.time.Instant}). */
  DATE_TIME("Edm.DateTime"),
  /** A 128-bit GUID ({@link java.util.UUID}). */
  GUID("Edm.Guid"),
  /** Bytes, up to 64 KiB, base64 in JSON ({@code byte[]}). */
  BINARY("Edm.Binary");

  private final String odataName;

  EdmType(String odataName) {
    this.odataName = odataName;
  }

  /** The name used in {@code @odata.type} annotations, e.g. {@code Edm.Int64}. */
  public String odataName() {
    return odataName;
  }

  /**
   * Looks up a type by its OData name; throws {@code InvalidInput} for names the service does not
   * know.
   */
  public static EdmType fromOdataName(String name) {
    for (EdmType type : values()) {
      if (type.odataName.equals(name)) {
        return type;
      }
    }
    throw new TableException(
        TableErrorCode.INVALID_INPUT, "Unsupported property type '" + name + "'.");
  }
}
