package dev.trestle.cli.ops;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.slf4j.event.KeyValuePair;

/**
 * {@code --log-format json}: one JSON object a line, {@code time}, {@code level}, {@code logger},
 * {@code thread}, {@code message}, then each key-value pair of the event as a field of its own (the
 * access log's method, path, status, ...) and {@code exception} when there is one.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] NONE = new byte[0];

  @Override
  public byte[] headerBytes() {
    return NONE;
  }

  @Override
  public byte[] footerBytes() {
    return NONE;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
      json.writeStringField("level", event.getLevel().toString());
      json.writeStringField("logger", event.getLoggerName());
      json.writeStringField("thread", event.getThreadName());
      json.writeStringField("message", event.getFormattedMessage());
      if (event.getKeyValuePairs() != null) {
        for (KeyValuePair pair : event.getKeyValuePairs()) {
          write(json, pair.key, pair.value);
        }
      }
      IThrowableProxy thrown = event.getThrowableProxy();
      if (thrown != null) {
        json.writeStringField("exception", ThrowableProxyUtil.asString(thrown));
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  private static void write(JsonGenerator json, String key, Object value) throws IOException {
    json.writeFieldName(key);
    switch (value) {
      case null -> json.writeNull();
      case Integer number -> json.writeNumber(number);
      case Long number -> json.writeNumber(number);
      case Double number -> json.writeNumber(number);
      case Boolean bool -> json.writeBoolean(bool);
      default -> json.writeString(value.toString());
    }
  }
}
