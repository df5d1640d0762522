package dev.trestle;

import java.time.Instant;

/**
 * A stored access policy (signed identifier) of a table. Start, expiry and permissions are each
 * optional (null); permissions is a subset of {@code raud}.
 */
public record AccessPolicy(String id, Instant start, Instant expiry, String permissions) {}
