package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkedBytesTest {

  @Test
  void writesOfAnySizeComeBackInOrderAcrossChunksOfAtMost64KiB() {
    Random random = new Random(7);
    ChunkedBytes chunked = new ChunkedBytes();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 0; i < 200; i++) {
      byte[] bytes = new byte[random.nextInt(i % 10 == 0 ? 200_000 : 300)];
      random.nextBytes(bytes);
      int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
      chunked.write(bytes, offset, bytes.length - offset);
      expected.write(bytes, offset, bytes.length - offset);
      chunked.write(i);
      expected.write(i);
    }

    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    for (ByteBuffer buffer : chunked.buffers()) {
      assertThat(buffer.remaining()).isBetween(1, 64 * 1024);
      sent.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    }
    assertThat(chunked.length()).isEqualTo(expected.size());
    assertThat(sent.toByteArray()).isEqualTo(expected.toByteArray());
    assertThat(chunked.toByteArray()).isEqualTo(expected.toByteArray());
  }

  @Test
  void aSmallBodyTakesOneSmallChunk() {
    ChunkedBytes chunked = new ChunkedBytes();
    byte[] json = "{\"value\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    chunked.write(json, 0, json.length);

    assertThat(chunked.buffers()).hasSize(1);
    assertThat(chunked.buffers().get(0).array()).hasSizeLessThanOrEqualTo(512);
  }

  @Test
  void aResponseInChunksIsTheSameBodyInOneArray() {
    ChunkedBytes chunked = new ChunkedBytes();
    byte[] content = new byte[150_000];
    new Random(3).nextBytes(content);
    chunked.write(content, 0, content.length);
    ApiResponse response = ApiResponse.status(200).body("application/json", chunked);

    assertThat(response.bodyLength()).isEqualTo(content.length);
    assertThat(response.bodyBuffers()).hasSizeGreaterThan(1);
    assertThat(response.body()).isEqualTo(content);
    assertThat(response.bodyBuffers().stream().mapToInt(ByteBuffer::remaining).sum())
        .isEqualTo(content.length);
  }
}
