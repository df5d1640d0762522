package dev.trestle.store.internal.feed;

/**
 * A table's trestle_feed row: its epoch, newest position, whether it records entities, retention.
 */
record FeedRow(long tableId, long epoch, long lastPosition, boolean withEntity, long retention) {}
