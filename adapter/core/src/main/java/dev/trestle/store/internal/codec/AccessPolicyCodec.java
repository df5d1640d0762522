package dev.trestle.store.internal.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.trestle.AccessPolicy;
import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** A table's stored access policies as a small JSON array in the catalog row. */
public final class AccessPolicyCodec {
  static final int MAX_POLICIES = 5;
  static final int MAX_ID_LENGTH = 64;

  private AccessPolicyCodec() {}

  /**
   * Checks the service's limits (at most 5 policies, ids of 1-64 characters, unique) and encodes.
   */
  public static String encode(List<AccessPolicy> policies) {
    if (policies == null || policies.isEmpty()) {
      return null;
    }
    if (policies.size() > MAX_POLICIES) {
      throw new TableException(
          TableErrorCode.INVALID_XML_DOCUMENT,
          "XML specified is not syntactically valid: at most 5 signed identifiers are allowed, "
              + policies.size()
              + " were given.");
    }
    HashSet<String> ids = new HashSet<>();
    for (AccessPolicy policy : policies) {
      if (policy.id() == null || policy.id().isEmpty() || policy.id().length() > MAX_ID_LENGTH) {
        throw new TableException(
            TableErrorCode.INVALID_XML_DOCUMENT,
            "XML specified is not syntactically valid: a signed identifier's Id must have 1 to 64 characters.");
      }
      if (!ids.add(policy.id())) {
        throw new TableException(
            TableErrorCode.INVALID_XML_DOCUMENT,
            "XML specified is not syntactically valid: the signed identifier '"
                + policy.id()
                + "' is given twice.");
      }
    }
    StringWriter out = new StringWriter();
    try (JsonGenerator json = PropertyCodec.JSON.createGenerator(out)) {
      json.writeStartArray();
      for (AccessPolicy policy : policies) {
        json.writeStartObject();
        json.writeStringField("id", policy.id());
        writeInstant(json, "start", policy.start());
        writeInstant(json, "expiry", policy.expiry());
        if (policy.permissions() != null) {
          json.writeStringField("permissions", policy.permissions());
        }
        json.writeEndObject();
      }
      json.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  public static List<AccessPolicy> decode(String json) {
    List<AccessPolicy> policies = new ArrayList<>();
    if (json == null) {
      return policies;
    }
    try (JsonParser parser = PropertyCodec.JSON.createParser(json)) {
      parser.nextToken();
      while (parser.nextToken() == JsonToken.START_OBJECT) {
        String id = null;
        Instant start = null;
        Instant expiry = null;
        String permissions = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          String value = parser.getText();
          switch (field) {
            case "id" -> id = value;
            case "start" -> start = Instant.parse(value);
            case "expiry" -> expiry = Instant.parse(value);
            case "permissions" -> permissions = value;
            default -> {}
          }
        }
        policies.add(new AccessPolicy(id, start, expiry, permissions));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return policies;
  }

  private static void writeInstant(JsonGenerator json, String field, Instant value)
      throws IOException {
    if (value != null) {
      json.writeStringField(field, value.toString());
    }
  }
}
