package dev.trestle;

import java.time.Instant;

/** A table: its name as created (case preserved) and when it was created. */
public record TableInfo(String name, Instant createdAt) {}
