package dev.trestle.server.auth.internal;

import java.util.Optional;

/** Shared Key (and anonymous access where enabled): the account owner may do everything. */
public enum FullAccessGrant implements Grant {
  INSTANCE;

  @Override
  public void authorize(Operation operation, String tableName) {}

  @Override
  public void authorizeEntity(
      Operation operation, String tableName, String partitionKey, String rowKey) {}

  @Override
  public Optional<KeyRange> keyRange() {
    return Optional.empty();
  }
}
