package dev.trestle.json;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.EdmType;
import dev.trestle.PropertyValue;
import dev.trestle.edm.EdmBinary;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.edm.EdmDouble;
import dev.trestle.edm.EdmGuid;
import dev.trestle.edm.EdmInteger;
import java.io.IOException;
import java.time.Instant;

/** One property as JSON: its value's wire form and its {@code @odata.type} annotation. */
final class PropertyJson {
  static final String TYPE_SUFFIX = "@odata.type";

  private PropertyJson() {}

  /**
   * Whether {@code value} carries its type at {@code level}: never for strings; Int32 and Boolean
   * only at full metadata; Double at full, and at minimal when NaN or infinite (a string); the
   * string-borne types whenever there is metadata.
   */
  static boolean annotated(PropertyValue value, MetadataLevel level) {
    return switch (value.type()) {
      case STRING -> false;
      case INT32, BOOLEAN -> level == MetadataLevel.FULL;
      case DOUBLE ->
          level == MetadataLevel.FULL
              || (level == MetadataLevel.MINIMAL
                  && EdmDouble.special((Double) value.value()) != null);
      case INT64, DATE_TIME, GUID, BINARY -> level != MetadataLevel.NONE;
    };
  }

  static void writeAnnotation(JsonGenerator gen, String name, EdmType type) throws IOException {
    gen.writeStringField(name + TYPE_SUFFIX, type.odataName());
  }

  /** Timestamp always has seven fractional digits, as in the ETag. */
  static void writeTimestamp(JsonGenerator gen, Instant timestamp) throws IOException {
    gen.writeStringField("Timestamp", EdmDateTime.formatSevenDigits(timestamp));
  }

  static void writeValue(JsonGenerator gen, String name, PropertyValue value) throws IOException {
    gen.writeFieldName(name);
    switch (value) {
      case PropertyValue.StringValue s -> gen.writeString(s.value());
      case PropertyValue.Int32Value i -> gen.writeNumber(i.value());
      case PropertyValue.Int64Value l -> gen.writeString(EdmInteger.formatInt64(l.value()));
      case PropertyValue.DoubleValue d -> {
        String special = EdmDouble.special(d.value());
        if (special != null) {
          gen.writeString(special);
        } else {
          gen.writeNumber(EdmDouble.format(d.value()));
        }
      }
      case PropertyValue.BooleanValue b -> gen.writeBoolean(b.value());
      case PropertyValue.DateTimeValue t -> gen.writeString(EdmDateTime.format(t.value()));
      case PropertyValue.GuidValue g -> gen.writeString(EdmGuid.format(g.value()));
      case PropertyValue.BinaryValue b -> gen.writeString(EdmBinary.format(b.value()));
    }
  }
}
