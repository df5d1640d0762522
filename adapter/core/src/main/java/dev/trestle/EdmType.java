package dev.trestle;

/** The eight property types of the Table data model, with their OData names. */
public enum EdmType {
  STRING("Edm.String"),
  INT32("Edm.Int32"),
  INT64("Edm.Int64"),
  DOUBLE("Edm.Double"),
  BOOLEAN("Edm.Boolean"),
  DATE_TIME("Edm.DateTime"),
  GUID("Edm.Guid"),
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
