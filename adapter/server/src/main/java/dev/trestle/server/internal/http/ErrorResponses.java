package dev.trestle.server.internal.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.trestle.TableErrorCode;
import dev.trestle.edm.EdmDateTime;
import dev.trestle.json.MetadataLevel;
import dev.trestle.server.internal.xml.ErrorXml;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;

/**
 * Error bodies as the service writes them: OData JSON for the JSON operations, an XML {@code
 * <Error>} for the XML ones (service properties, stats, ACL). The message always ends with the
 * request id and time.
 */
public final class ErrorResponses {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private ErrorResponses() {}

  public static String messageWithTrailer(String message, String requestId, Instant now) {
    return message + "\nRequestId:" + requestId + "\nTime:" + EdmDateTime.formatSevenDigits(now);
  }

  public static ApiResponse json(
      TableErrorCode code, String message, String requestId, MetadataLevel level, Clock clock) {
    return json(
        code.status(), code.code(), messageWithTrailer(message, requestId, clock.instant()), level);
  }

  public static ApiResponse json(int status, String code, String fullMessage, MetadataLevel level) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator gen = JSON.createGenerator(out)) {
      gen.writeStartObject();
      gen.writeObjectFieldStart("odata.error");
      gen.writeStringField("code", code);
      gen.writeObjectFieldStart("message");
      gen.writeStringField("lang", "en-US");
      gen.writeStringField("value", fullMessage);
      gen.writeEndObject();
      gen.writeEndObject();
      gen.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ApiResponse.status(status)
        .header("x-ms-error-code", code)
        .body(level.contentType(), out.toByteArray());
  }

  public static ApiResponse xml(
      TableErrorCode code, String message, String detail, String requestId, Clock clock) {
    String body =
        ErrorXml.write(
            code.code(), messageWithTrailer(message, requestId, clock.instant()), detail);
    return ApiResponse.status(code.status())
        .header("x-ms-error-code", code.code())
        .body("application/xml", body);
  }
}
