package dev.trestle.server.internal.http;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A body written in chunks that grow from small to 64 KiB and are sent as they are: a body of any
 * size is held once, never copied to grow nor to be sent, where a byte array stream holds a page of
 * large entities up to three times over while it grows and is copied out.
 */
public final class ChunkedBytes extends OutputStream {
  private static final int FIRST_CHUNK = 512;
  private static final int MAX_CHUNK = 64 * 1024;

  private final List<byte[]> chunks = new ArrayList<>();
  private byte[] current = new byte[0];
  private int used;
  private long length;

  @Override
  public void write(int b) {
    if (used == current.length) {
      next();
    }
    current[used++] = (byte) b;
    length++;
  }

  @Override
  public void write(byte[] bytes, int offset, int count) {
    Objects.checkFromIndexSize(offset, count, bytes.length);
    while (count > 0) {
      if (used == current.length) {
        next();
      }
      int n = Math.min(count, current.length - used);
      System.arraycopy(bytes, offset, current, used, n);
      used += n;
      offset += n;
      count -= n;
      length += n;
    }
  }

  private void next() {
    current = new byte[chunks.isEmpty() ? FIRST_CHUNK : Math.min(MAX_CHUNK, current.length * 2)];
    chunks.add(current);
    used = 0;
  }

  public long length() {
    return length;
  }

  /** The written bytes as buffers over the chunks, in order. */
  List<ByteBuffer> buffers() {
    List<ByteBuffer> buffers = new ArrayList<>(chunks.size());
    for (byte[] chunk : chunks) {
      buffers.add(ByteBuffer.wrap(chunk, 0, chunk == current ? used : chunk.length));
    }
    return buffers;
  }

  /** The written bytes in one array: a copy, for small bodies. */
  public byte[] toByteArray() {
    byte[] bytes = new byte[Math.toIntExact(length)];
    int at = 0;
    for (ByteBuffer buffer : buffers()) {
      int n = buffer.remaining();
      buffer.get(bytes, at, n);
      at += n;
    }
    return bytes;
  }
}
