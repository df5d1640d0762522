package dev.trestle.server.internal.http;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code x-ms-request-id} of each answer: a version 4 UUID, as Azure's, from a fast random
 * source. A request id names a request in logs and need not be unguessable, so the secure random
 * source of {@link UUID#randomUUID()} (a shared, locked generator) is a cost without a use here.
 */
public final class RequestIds {
  private RequestIds() {}

  public static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
    long low = random.nextLong() & ~(0xC0L << 56) | (0x80L << 56); // IETF variant
    return new UUID(high, low).toString();
  }
}
