package dev.trestle.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link DatabaseTest} (or a class of them) whose operation writes several partitions on
 * purpose, as a database distributed by partition key runs it across shards in one distributed
 * transaction (a bulk load, a truncate, a relaxed transaction across partitions): {@link
 * PartitionConfinement} still counts its statements but does not fail the test. Entity-group
 * transactions, single-entity writes and relaxed transactions within one partition key are never
 * marked.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface MultiShardWrites {
  /** Why the operation spans partitions. */
  String value();
}
